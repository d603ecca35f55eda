export const i18n = {
  resources: {
    permissions: {
      name: 'Permission group |||| Permissions',
      create_page: 'New permission group',
      edit_page: 'Edit permission group',
      notifications: { created: 'Group created', updated: 'Group saved' },
      fields: {
        name: 'Group',
        accesses: 'Accesses',
        actions: 'Actions',
      },
    },
  },
};
