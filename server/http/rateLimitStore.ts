/**
 * Where @fastify/rate-limit keeps its counters: Redis when REDIS_URL is set (its own Lua store),
 * otherwise the database (rate_limit_counters). Either way every API process shares them and no
 * counter is evicted while its window runs, unlike the plugin's default in-process LRU of 5,000
 * keys, which each process fills on its own and junk requests can flush. (attemptLimit.ts hashes
 * the keys: e-mail and client addresses have no business in a table or a Redis dump in clear.)
 */
import type { RateLimitPluginOptions } from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';

type Callback = (error: Error | null, result: { current: number; ttl: number } | null) => void;

/** Expired counters are removed now and then; a live one never is. */
const PRUNE_EVERY = 500;

export function databaseStore(db: Database) {
  let calls = 0;
  return class DatabaseRateLimitStore {
    incr(key: string, callback: Callback, timeWindow: number) {
      calls += 1;
      const prune =
        calls % PRUNE_EVERY === 0
          ? db.execute(sql`delete from rate_limit_counters where resets_at < now()`).catch(() => undefined)
          : Promise.resolve();
      const window = Math.max(1, Math.floor(timeWindow));
      db.execute(sql`
        insert into rate_limit_counters (key, hits, resets_at)
        values (${key}, 1, now() + ${window} * interval '1 millisecond')
        on conflict (key) do update set
          hits = case when rate_limit_counters.resets_at <= now() then 1 else rate_limit_counters.hits + 1 end,
          resets_at = case when rate_limit_counters.resets_at <= now() then excluded.resets_at
                      else rate_limit_counters.resets_at end
        returning hits, ceil(extract(epoch from (resets_at - now())) * 1000)::integer as ttl`)
        .then((result) => {
          const row = (result as unknown as { rows: { hits: number; ttl: number }[] }).rows[0]!;
          callback(null, { current: Number(row.hits), ttl: Math.max(0, Number(row.ttl)) });
        })
        .catch((error: Error) => callback(error, null));
      void prune;
    }

    child() {
      return this;
    }
  };
}

/** The plugin options that choose the store. */
export function rateLimitStorage(
  db: Database,
  redisUrl: string | undefined,
): { options: RateLimitPluginOptions; close(): Promise<void> } {
  if (redisUrl) {
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2, connectTimeout: 2000 });
    return { options: { redis, nameSpace: 'ad-rules-rl:' }, close: () => redis.quit().then(() => undefined) };
  }
  return {
    options: { store: databaseStore(db) as unknown as RateLimitPluginOptions['store'] },
    close: async () => undefined,
  };
}
