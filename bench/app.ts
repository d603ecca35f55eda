/** The real Fastify app over a bench database, called in-process (fastify.inject) as a superuser. */
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../server/app';
import { hashPassword } from '../server/auth/passwords';
import { loadConfig } from '../server/config';
import type { DbHandle } from '../server/db/client';
import { users } from '../server/db/schema/index';

export interface BenchApp {
  app: FastifyInstance;
  /** GET as the bench superuser; throws unless the answer is 200. */
  get(url: string): Promise<unknown>;
  close(): Promise<void>;
}

export async function benchApp(dbh: DbHandle): Promise<BenchApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'ad-rules-bench-'));
  const config = loadConfig({ DATA_DIR: dataDir } as NodeJS.ProcessEnv, {
    credentialsKey: randomBytes(16).toString('hex'),
    // One token serves the whole run.
    accessTokenSeconds: 24 * 60 * 60,
    // This bench compares what one request costs on a small and a large database: every request
    // reads the database, none is answered from the page cache (the load bench measures that).
    pageCacheSeconds: 0,
  });
  const app = await buildApp({ config, dbh, jwtSecret: randomBytes(32).toString('hex') });
  await app.ready();
  const [user] = await dbh.db
    .insert(users)
    .values({
      email: `bench-${randomBytes(4).toString('hex')}@example.com`,
      passwordHash: await hashPassword(randomBytes(12).toString('hex')),
      firstName: 'Bench',
      lastName: 'User',
      isSuperuser: true,
    })
    .returning({ id: users.id });
  const { access } = await app.tokens.issue(user!.id);
  return {
    app,
    async get(url) {
      const response = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${access}` } });
      if (response.statusCode !== 200)
        throw new Error(`GET ${url} answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
      return response.json();
    },
    close: () => app.close(),
  };
}
