/** Every route of the people area: team, groups, invitations (sending, pending ones), password reset, e-mail change. */
import type { FastifyInstance } from 'fastify';
import emailChangeRoutes from './emailChangeRoutes';
import groupRoutes from './groupRoutes';
import invitationRoutes from './invitationRoutes';
import passwordResetRoutes from './passwordResetRoutes';
import pendingInvitationRoutes from './pendingInvitationRoutes';
import userRoutes from './userRoutes';

export default async function peopleRoutes(app: FastifyInstance) {
  await app.register(userRoutes);
  await app.register(groupRoutes);
  await app.register(invitationRoutes);
  await app.register(pendingInvitationRoutes);
  await app.register(passwordResetRoutes);
  await app.register(emailChangeRoutes);
}
