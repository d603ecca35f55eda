export const i18n = {
  resources: {
    invitations: {
      name: 'Invitation |||| Invitations',
      create_page: 'Invite a colleague',
      fields: { group_id: 'Permission group', email: 'Email' },
    },
  },
};
