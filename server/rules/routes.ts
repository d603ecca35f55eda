/** The folders-and-rules API: folders, rules, the trash and time zones, sharing one credentials cipher. */
import type { FastifyInstance } from 'fastify';
import { credentialCipherFor } from './credentials';
import folderRoutes from './folderRoutes';
import ruleRoutes from './ruleRoutes';
import trashRoutes from './trashRoutes';

export default async function rulesRoutes(app: FastifyInstance) {
  const cipher = await credentialCipherFor(app.config);
  await app.register(folderRoutes, { cipher });
  await app.register(ruleRoutes, { cipher });
  await app.register(trashRoutes, { cipher });
}
