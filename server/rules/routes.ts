/** The folders-and-rules API: folders, rules, the trash and time zones. */
import type { FastifyInstance } from 'fastify';
import folderRoutes from './folderRoutes';
import ruleRoutes from './ruleRoutes';
import trashRoutes from './trashRoutes';

export default async function rulesRoutes(app: FastifyInstance) {
  await app.register(folderRoutes);
  await app.register(ruleRoutes);
  await app.register(trashRoutes);
}
