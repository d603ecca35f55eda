export const i18n = {
  resources: {
    permissions: {
      name: 'Permission group |||| Permissions',
      fields: {
        name: 'Group',
        accesses: 'Accesses',
        actions: 'Actions',
      },
    },
  },
};
