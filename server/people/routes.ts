/** Every route of the people area: team, groups, invitations, password reset. */
import type { FastifyInstance } from 'fastify';
import groupRoutes from './groupRoutes';
import invitationRoutes from './invitationRoutes';
import passwordResetRoutes from './passwordResetRoutes';
import userRoutes from './userRoutes';

export default async function peopleRoutes(app: FastifyInstance) {
  await app.register(userRoutes);
  await app.register(groupRoutes);
  await app.register(invitationRoutes);
  await app.register(passwordResetRoutes);
}
