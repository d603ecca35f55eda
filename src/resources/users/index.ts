/**
 * Team (/team): the users resource. Its list is the Team screen; the Account screen edits the
 * signed-in user's own record through it. Opening it needs update_permissions (SPEC §2 user menu).
 */
import GroupIcon from '@mui/icons-material/Group';
import { lazy } from 'react';
import { defineResource } from '../types';
import { i18n } from './i18n';
import { memberName, type TeamMember } from './types';

export default defineResource({
  name: 'team',
  endpoint: { path: 'user/' },
  list: lazy(() => import('./UserList')),
  icon: GroupIcon,
  i18n,
  access: { list: 'update_permissions' },
  recordRepresentation: (record) => memberName(record as TeamMember),
});
