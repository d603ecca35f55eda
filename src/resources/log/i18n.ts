export const i18n = {
  resources: {
    log: {
      name: 'Log |||| Log',
      fields: {
        timestamp: 'Date',
        actor: 'Responsible',
        ad_account: 'Client / Ad account',
        action: 'Action',
        rule_name: 'Rule',
      },
      chips: {
        rule_id: 'Rule id: %{id}',
        folder_id: 'Folder id %{id}',
      },
      empty: 'No changes yet. Every change to folders, rules, users and groups shows here.',
    },
  },
};
