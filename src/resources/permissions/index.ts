/**
 * Permissions (/permissions): the permission groups resource. Seeing it needs view_permissions;
 * creating, renaming, toggling accesses and deleting need update_permissions (docs/decisions.md;
 * PEOPLE_ACCESS in shared/permissions.ts, the server's rule too).
 */
import AdminPanelSettings from '@mui/icons-material/AdminPanelSettings';
import { lazy } from 'react';
import { PEOPLE_ACCESS } from '../../../shared/permissions';
import { defineResourceFolder } from '../types';
import { i18n } from './i18n';

export default defineResourceFolder({
  name: 'permissions',
  endpoint: { path: 'groups/' },
  list: lazy(() => import('./PermissionsList')),
  create: lazy(() => import('./PermissionGroupCreate')),
  edit: lazy(() => import('./PermissionGroupEdit')),
  icon: AdminPanelSettings,
  i18n,
  access: {
    list: PEOPLE_ACCESS.permissionsScreen,
    create: PEOPLE_ACCESS.changeGroups,
    edit: PEOPLE_ACCESS.changeGroups,
    delete: PEOPLE_ACCESS.changeGroups,
  },
  userMenu: { order: 20, label: 'app.user_menu.permissions' },
  recordRepresentation: 'name',
});
