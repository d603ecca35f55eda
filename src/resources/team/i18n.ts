export const i18n = {
  resources: {
    team: {
      name: 'Team member |||| Team',
      edit_page: 'Edit team member',
      notifications: { updated: 'Team member saved' },
      fields: {
        full_name: 'Full name',
        email: 'Email',
        group: 'Permission Group',
        action: 'Action',
        group_id: 'Permission group',
        first_name: 'First name',
        last_name: 'Last name',
        phone: 'Phone',
      },
    },
  },
};
