/**
 * Team (/team): the users resource. Its list is the Team screen; the Account screen edits the
 * signed-in user's own record through it. Opening it needs one of TEAM_ACCESS (providers/canAccess.ts).
 */
import GroupIcon from '@mui/icons-material/Group';
import { lazy } from 'react';
import { TEAM_ACCESS } from '../../providers/canAccess';
import { defineResource } from '../types';
import { i18n } from './i18n';
import { memberName, type TeamMember } from './types';

export default defineResource({
  name: 'team',
  endpoint: { path: 'user/' },
  list: lazy(() => import('./UserList')),
  edit: lazy(() => import('./UserEdit')),
  icon: GroupIcon,
  i18n,
  access: { list: TEAM_ACCESS, edit: 'add_edit_users' },
  menu: { order: 30, label: 'app.nav.team', deniedReason: 'app.nav.team_denied' },
  recordRepresentation: (record) => memberName(record as TeamMember),
});
