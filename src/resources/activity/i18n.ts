export const i18n = {
  resources: {
    activity: {
      name: 'Activity |||| Activity',
      fields: {
        created_at: 'Date',
        client_account: 'Client / Ad account',
        action: 'Action',
        rule: 'Rule',
        ad_id: 'Ad ID',
        reason: 'Info',
      },
      chips: {
        rule_id: 'Rule id: %{id}',
        folder_id: 'Folder id %{id}',
        ad_id: 'Ad id: %{id}',
      },
      empty: 'The rules have not acted yet. What they turn off, and why, shows here.',
    },
  },
};
