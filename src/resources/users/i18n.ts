export const i18n = {
  resources: {
    team: {
      name: 'Team member |||| Team',
      fields: {
        full_name: 'Full name',
        email: 'Email',
        group: 'Permission Group',
        action: 'Action',
        group_id: 'Permission group',
      },
    },
  },
};
