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
        rule_folders: 'Folders where rules may be edited',
        rule_folders_help: 'The group’s create update rules and delete rules apply in every folder.',
        all_folders: 'All folders',
        some_folders: 'Chosen folders',
        chosen_folders: 'Folders',
        chosen_folders_help: 'The group’s create update rules and delete rules apply only in these folders.',
        no_folders: 'No folder found',
        folder_gone: 'Folder %{id} (deleted)',
        approval_limit: 'Approval limit ($/day, empty = no limit)',
        approval_limit_help: 'The most daily money one approval by a member may release, in the account’s currency.',
      },
    },
  },
};
