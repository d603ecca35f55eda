/** The built browser app: its files, and index.html for every client-side route (/, /edit-rule/5, /join/abc …). */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Serves nothing when `staticDir` holds no built app (tests, `npm run dev`). */
export async function spa(app: FastifyInstance, { staticDir }: { staticDir?: string }) {
  if (!staticDir || !existsSync(path.join(staticDir, 'index.html'))) return;
  await app.register(fastifyStatic, { root: staticDir, wildcard: false, index: false });
  app.get('/*', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    if (request.url.startsWith('/api/'))
      return reply.status(404).header('cache-control', 'no-store').send({ detail: 'Not found.' });
    const file = request.url.split('?')[0]!;
    if (file !== '/' && existsSync(path.join(staticDir, file)) && !file.includes('..'))
      return reply.sendFile(file.slice(1));
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
