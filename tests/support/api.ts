/** An API under test: a fresh database, the real Fastify app, and helpers to sign in as anyone. */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../server/app';
import { loadConfig, type Config } from '../../server/config';
import type { DbHandle } from '../../server/db/client';
import { groups, userGroups, users } from '../../server/db/schema/index';
import { hashPassword } from '../../server/auth/passwords';
import type { AppServices } from '../../server/services';
import type { AddressPolicy } from '../../server/alerts/addressPolicy';
import { DATA_CHANGED_CHANNEL } from '../../server/http/pageCache';
import type { Permission } from '../../shared/permissions';
import { freshDatabase, type Engine } from './db';

/** The fields of a user as the API answers one, no more. */
export const USER_FIELDS = [
  'account',
  'email',
  'first_name',
  'groups',
  'id',
  'is_active',
  'is_staff',
  'is_superuser',
  'last_name',
  'phone',
] as const;

export interface TestApi {
  app: FastifyInstance;
  dbh: DbHandle;
  config: Config;
  /** Inserts a permission group with these accesses. */
  newGroup(name: string, accesses: Permission[]): Promise<typeof groups.$inferSelect>;
  /** Creates an active user (optionally in a group with these accesses) and returns its access token. */
  userWith(permissions: Permission[] | 'superuser', overrides?: Partial<typeof users.$inferInsert>): Promise<TestUser>;
  request(token: string | null, options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface TestUser {
  id: number;
  email: string;
  password: string;
  token: string;
  refresh: string;
}

let counter = 0;

/** Saved webhook hosts resolve to a public address no test connects to: saving never asks the DNS. */
export const testWebhookPolicy: AddressPolicy = { hosts: [], resolve: async () => ['1.1.1.1'] };

export async function createTestApi(
  engine: Engine,
  options: {
    config?: Partial<Config>;
    /** The services the app is built with; a function when they need the test's database. */
    services?: Partial<AppServices> | ((dbh: DbHandle) => Partial<AppServices>);
  } = {},
): Promise<TestApi> {
  const dbh = await freshDatabase(engine);
  const services = {
    webhookPolicy: testWebhookPolicy,
    ...(typeof options.services === 'function' ? options.services(dbh) : options.services),
  };
  const config = loadConfig({ DATA_DIR: '/tmp/ad-rules-test-unused' } as NodeJS.ProcessEnv, {
    loginRateLimit: { max: 1000, windowMs: 60_000 },
    ...options.config,
  });
  const app = await buildApp({ config, dbh, jwtSecret: randomBytes(32).toString('hex'), services });
  await app.ready();
  const passwordHash = await hashPassword('correct-horse-1');

  const api: TestApi = {
    app,
    dbh,
    config,
    async newGroup(name, accesses) {
      const [group] = await dbh.db.insert(groups).values({ name, accesses }).returning();
      return group!;
    },
    async userWith(permissions, overrides = {}) {
      counter += 1;
      const email = overrides.email ?? `user${counter}-${randomBytes(3).toString('hex')}@example.com`;
      const [user] = await dbh.db
        .insert(users)
        .values({
          email,
          passwordHash,
          firstName: 'Test',
          lastName: `User ${counter}`,
          isSuperuser: permissions === 'superuser',
          ...overrides,
        })
        .returning();
      if (Array.isArray(permissions) && permissions.length) {
        const group = await api.newGroup(`Group ${counter}`, permissions);
        await dbh.db.insert(userGroups).values({ userId: user!.id, groupId: group.id });
      }
      const tokens = await app.tokens.issue(user!.id);
      return { id: user!.id, email, password: 'correct-horse-1', token: tokens.access, refresh: tokens.refresh };
    },
    request(token, options) {
      return app.inject({
        ...options,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...options.headers },
      });
    },
    async close() {
      await app.close();
      await dbh.close();
    },
  };
  return api;
}

export async function deactivate(api: TestApi, userId: number) {
  await api.dbh.db.update(users).set({ isActive: false }).where(eq(users.id, userId));
}

/**
 * Resolves once the app's page cache has heard the change notifications of everything committed
 * before the call: a marker sent on their channel now is delivered after them (in commit order).
 */
export async function changesHeard(api: TestApi, timeoutMs = 10_000): Promise<void> {
  const cache = api.app.pageCache;
  const tableChanged = cache.tableChanged;
  const marker = `heard_${randomBytes(6).toString('hex')}`;
  let timer: NodeJS.Timeout | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      cache.tableChanged = (table) => (table === marker ? resolve() : tableChanged.call(cache, table));
      timer = setTimeout(
        () => reject(new Error(`the marker notification was not heard in ${timeoutMs} ms`)),
        timeoutMs,
      );
      api.dbh.sql.query('select pg_notify($1, $2)', [DATA_CHANGED_CHANNEL, marker]).catch(reject);
    });
  } finally {
    clearTimeout(timer);
    cache.tableChanged = tableChanged;
  }
}
