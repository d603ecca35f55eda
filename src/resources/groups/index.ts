/**
 * Permissions (/permissions): the permission groups resource. Seeing it needs view_permissions;
 * creating, renaming, toggling accesses and deleting need update_permissions (docs/decisions.md).
 */
import AdminPanelSettings from '@mui/icons-material/AdminPanelSettings';
import { lazy } from 'react';
import { defineResource } from '../types';
import { i18n } from './i18n';

export default defineResource({
  name: 'permissions',
  endpoint: { path: 'groups/' },
  list: lazy(() => import('./GroupList')),
  create: lazy(() => import('./GroupCreate')),
  edit: lazy(() => import('./GroupEdit')),
  icon: AdminPanelSettings,
  i18n,
  access: {
    list: 'view_permissions',
    create: 'update_permissions',
    edit: 'update_permissions',
    delete: 'update_permissions',
  },
  recordRepresentation: 'name',
});
