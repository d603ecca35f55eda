/**
 * Team (/team): the users resource. Its list is the Team screen; the Account screen edits the
 * signed-in user's own record through it. Who may open and edit it: PEOPLE_ACCESS (shared/permissions.ts),
 * the server's rule too.
 */
import GroupIcon from '@mui/icons-material/Group';
import { lazy } from 'react';
import { PEOPLE_ACCESS } from '../../../shared/permissions';
import { defineResourceFolder } from '../types';
import { i18n } from './i18n';
import { memberName, type TeamMember } from './types';

export default defineResourceFolder({
  name: 'team',
  endpoint: { path: 'user/' },
  list: lazy(() => import('./TeamList')),
  edit: lazy(() => import('./TeamMemberEdit')),
  icon: GroupIcon,
  i18n,
  access: { list: PEOPLE_ACCESS.team, edit: PEOPLE_ACCESS.manageMembers },
  menu: { order: 30, label: 'app.nav.team', deniedReason: 'app.nav.team_denied' },
  userMenu: { order: 10, label: 'app.user_menu.team' },
  recordRepresentation: (record) => memberName(record as TeamMember),
});
