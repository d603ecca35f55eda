/**
 * Invitations: how a team member is created. Its Create view (/invitations/create, and the same
 * inputs in Team's Invite dialog) POSTs user_invite/send_invite_code/, which answers the pending
 * invitation; Team lists the pending ones with Resend and Cancel. No list or menu entry of its own.
 * Who may invite: PEOPLE_ACCESS.manageMembers (shared/permissions.ts), the server's rule too.
 */
import { lazy } from 'react';
import { PEOPLE_ACCESS } from '../../../shared/permissions';
import { defineResourceFolder } from '../types';
import { i18n } from './i18n';

export default defineResourceFolder({
  name: 'invitations',
  endpoint: { path: 'user_invite/', create: { path: 'user_invite/send_invite_code/', recordIn: 'invitation' } },
  create: lazy(() => import('./InvitationCreate')),
  i18n,
  access: { list: PEOPLE_ACCESS.manageMembers, create: PEOPLE_ACCESS.manageMembers },
  recordRepresentation: 'email',
});
