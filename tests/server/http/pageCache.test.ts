/**
 * List pages kept in memory never outlive a change and are shared only by those the list's guard
 * lets in (its answer is the same for all of them): a write through the API is seen by the writer's
 * very next request, a write by anyone else as soon as the database's notification arrives, a hard
 * reload reads the database, and nothing is kept while changes cannot be heard.
 */
import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPageCache, type PageCache, type PageKey } from '../../../server/http/pageCache';
import { listPageAnswers } from '../../../server/observability/counters';
import { changesHeard, createTestApi, type TestApi, type TestUser } from '../../support/api';
import { eachDatabase } from '../../support/db';
import { call, createFolder, insertAccount } from '../rules/fixtures';

/** Every route marked `pageCache`, at a URL its screen asks for, and the one permission that opens it. */
const CACHED = [
  { url: '/api/log/?limit=10&offset=0&ordering=-timestamp', opensIt: 'view_logs' },
  { url: '/api/rule_log/?limit=10&offset=0', opensIt: 'view_logs' },
  { url: '/api/campaigns/?limit=10&offset=0', opensIt: 'add_edit_campaigns' },
  { url: '/api/general_page/?limit=10&offset=0', opensIt: 'read_rules' },
  { url: '/api/trash_page/?limit=10&offset=0', opensIt: 'delete_rules' },
  { url: '/api/user/?limit=10&offset=0', opensIt: 'update_permissions' },
] as const;
const CACHED_LISTS = CACHED.map((list) => list.url);

/** Tables whose changes do not empty the pages (migration 0015): no list may read them. */
const QUIET_TABLES = [
  'sessions',
  'refresh_tokens',
  'rate_limit_counters',
  'login_failures',
  'password_resets',
  'email_changes',
  'sync_state',
  'account_snapshots',
  'ad_metric_history',
  'ad_history_names',
  'webhook_deliveries',
  'alert_destinations',
  'object_switches',
  'account_day_readings',
  'backtest_jobs',
  'backtest_pauses',
  'lead_people',
  'lead_outcomes',
  'outcome_keys',
  'meta_notifications',
  'meta_subscriptions',
  'meta_push_accounts',
  'rule_rechecks',
  'rule_templates',
];

const body = (text: string) => Buffer.from(text);

const page = (url: string, list = '/api/log/') => ({ list, url });

describe('the page cache', () => {
  const listening = (options: { ttlSeconds: number; maxBytes: number; now?: () => number }) => {
    const cache = createPageCache(options);
    cache.listReads('/api/log/', ['audit_log']);
    cache.listReads('/api/campaigns/', ['campaigns', 'meta_ad_accounts']);
    cache.setListening(true);
    return cache;
  };
  const keep = (cache: PageCache, key: PageKey, text: string) => cache.keep(key, body(text), cache.readStarts(key));

  it('keeps an answer while changes are heard and forgets every answer when it stops hearing them', () => {
    const cache = createPageCache({ ttlSeconds: 30, maxBytes: 1_000 });
    cache.listReads('/api/log/', ['audit_log']);
    keep(cache, page('/a'), 'a');
    expect(cache.find(page('/a'), 1)).toBeUndefined(); // not listening yet
    cache.setListening(true);
    keep(cache, page('/a'), 'a');
    expect(cache.find(page('/a'), 1)?.toString()).toBe('a');
    cache.clear();
    expect(cache.find(page('/a'), 1)).toBeUndefined();
    keep(cache, page('/a'), 'a');
    cache.setListening(false);
    expect(cache.find(page('/a'), 1)).toBeUndefined();
  });

  it('a changed table empties only the lists that read it; a change naming no table empties all', () => {
    const cache = listening({ ttlSeconds: 30, maxBytes: 1_000 });
    const campaignsPage = page('/c', '/api/campaigns/');
    keep(cache, page('/a'), 'a');
    keep(cache, campaignsPage, 'c');
    cache.tableChanged('audit_log');
    expect(cache.find(page('/a'), 1)).toBeUndefined();
    expect(cache.find(campaignsPage, 1)?.toString()).toBe('c');
    cache.tableChanged('sessions'); // no list reads it
    expect(cache.find(campaignsPage, 1)?.toString()).toBe('c');
    cache.tableChanged('');
    expect(cache.find(campaignsPage, 1)).toBeUndefined();
  });

  it("colleagues share a page; after a user's write, only pages read since are theirs", () => {
    const cache = listening({ ttlSeconds: 30, maxBytes: 1_000 });
    keep(cache, page('/a'), 'before');
    expect(cache.find(page('/a'), 2)?.toString()).toBe('before');
    cache.userWrote(1);
    expect(cache.find(page('/a'), 1)).toBeUndefined(); // read before their write
    expect(cache.find(page('/a'), 2)?.toString()).toBe('before'); // theirs until the change is heard
    keep(cache, page('/a'), 'after');
    expect(cache.find(page('/a'), 1)?.toString()).toBe('after');
    expect(cache.find(page('/a'), 2)?.toString()).toBe('after');
    const mark = cache.readStarts(page('/b'));
    cache.userWrote(2); // while that read was under way
    cache.keep(page('/b'), body('during'), mark);
    expect(cache.find(page('/b'), 2)).toBeUndefined();
    expect(cache.find(page('/b'), 1)?.toString()).toBe('during');
  });

  it('never keeps what was read before a change that came in meanwhile', () => {
    const cache = listening({ ttlSeconds: 30, maxBytes: 1_000 });
    for (const change of [() => cache.clear(), () => cache.tableChanged('audit_log')]) {
      const mark = cache.readStarts(page('/a'));
      change(); // heard while the read was under way
      cache.keep(page('/a'), body('old'), mark);
      expect(cache.find(page('/a'), 1)).toBeUndefined();
    }
    const mark = cache.readStarts(page('/a'));
    cache.tableChanged('campaigns'); // another list's table
    cache.keep(page('/a'), body('new'), mark);
    expect(cache.find(page('/a'), 1)?.toString()).toBe('new');
  });

  it('lets an answer age out, and drops the least recently used past its size', () => {
    let now = 1_000;
    const cache = createPageCache({ ttlSeconds: 30, maxBytes: 2 * 30, now: () => now });
    cache.listReads('/api/log/', ['audit_log']);
    cache.listReads('/api/campaigns/', ['campaigns']);
    cache.setListening(true);
    // Each list holds half the memory, 30 bytes: two 10-byte answers with their 2-byte URLs, not three.
    keep(cache, page('/a'), 'aaaaaaaaaa');
    keep(cache, page('/b'), 'bbbbbbbbbb');
    expect(cache.find(page('/a'), 1)).toBeDefined(); // a is now the more recently used
    keep(cache, page('/c'), 'cccccccccc');
    expect(cache.find(page('/b'), 1)).toBeUndefined();
    expect(cache.find(page('/a'), 1)).toBeDefined();
    keep(cache, page('/big'), 'x'.repeat(50));
    expect(cache.find(page('/big'), 1)).toBeUndefined();
    now = 31_001;
    expect(cache.find(page('/a'), 1)).toBeUndefined();
  });

  it('keeps nothing when turned off', () => {
    const cache = createPageCache({ ttlSeconds: 0, maxBytes: 1_000 });
    cache.listReads('/api/log/', ['audit_log']);
    cache.setListening(true);
    keep(cache, page('/a'), 'a');
    expect(cache.find(page('/a'), 1)).toBeUndefined();
  });
});

async function answersFrom(source: 'kept' | 'read' | 'fresh'): Promise<number> {
  return (await listPageAnswers.get()).values
    .filter((v) => v.labels.source === source)
    .reduce((sum, v) => sum + v.value, 0);
}

eachDatabase((engine) => {
  describe(`list pages in memory on ${engine}`, () => {
    let api: TestApi;
    let admin: TestUser;
    let folder: { id: number; name: string };
    const captureFile = path.join(os.tmpdir(), `page-cache-sql-${engine}-${process.pid}.jsonl`);

    beforeAll(async () => {
      // Every statement the server runs, to see which tables the lists read (server/db/client.ts).
      process.env.SQL_CAPTURE_FILE = captureFile;
      try {
        api = await createTestApi(engine);
      } finally {
        delete process.env.SQL_CAPTURE_FILE;
      }
      admin = await api.userWith('superuser');
      const account = await insertAccount(api, { accountName: 'Kept Account' });
      folder = await createFolder(api, admin.token, account, { name: 'Kept Folder' });
      // The folder's answer leaves as its transaction commits: the notifications of that change
      // (which forget any page read meanwhile) arrive just after it.
      await changesHeard(api);
    });
    afterAll(async () => {
      await api.close();
      await rm(captureFile, { force: true });
    });

    const get = (token: string, url: string, headers: Record<string, string> = {}) =>
      api.request(token, { method: 'GET', url, headers });
    const folderNames = async (token: string, headers: Record<string, string> = {}) =>
      (
        (await get(token, '/api/general_page/?limit=100', headers)).json() as { results: { name: string }[] }
      ).results.map((f) => f.name);

    it('answers a list asked for again from memory, byte for byte as the database did', async () => {
      for (const url of CACHED_LISTS) {
        const first = await get(admin.token, url);
        expect(first.statusCode, `${url}: ${first.body}`).toBe(200);
        const kept = await answersFrom('kept');
        const again = await get(admin.token, url);
        expect(await answersFrom('kept'), url).toBe(kept + 1);
        expect(again.statusCode).toBe(200);
        expect(again.body, url).toBe(first.body);
        expect(again.headers['content-type'], url).toBe(first.headers['content-type']);
        expect(again.headers['cache-control'], url).toBe('no-store'); // never kept by a browser or proxy
      }
    });

    it('a change written straight to the database shows as soon as it is heard', async () => {
      expect(await folderNames(admin.token)).toContain('Kept Folder');
      await api.dbh.sql.query('update folders set name = $1 where id = $2', ['Renamed Elsewhere', folder.id]);
      await vi.waitFor(async () => expect(await folderNames(admin.token)).toContain('Renamed Elsewhere'), {
        timeout: 5_000,
        interval: 20,
      });
    });

    it('a change through the API is seen by the very next request', async () => {
      await folderNames(admin.token);
      await folderNames(admin.token);
      const renamed = await call(api, admin.token, 'PATCH', `/api/general_page/${folder.id}/`, {
        name: 'Renamed Here',
      });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(await folderNames(admin.token)).toContain('Renamed Here');
    });

    it('signing in and renewing a session leave every kept page in place', async () => {
      const url = '/api/campaigns/?limit=10&offset=0';
      await get(admin.token, url);
      const colleague = await api.userWith('superuser');
      const signedIn = await api.app.inject({
        method: 'POST',
        url: '/api/token/',
        payload: { email: colleague.email, password: colleague.password },
      });
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      const renewed = await api.app.inject({
        method: 'POST',
        url: '/api/token/refresh/',
        payload: { refresh: (signedIn.json() as { refresh: string }).refresh },
      });
      expect(renewed.statusCode, renewed.body).toBe(200);
      await changesHeard(api); // any notification they caused has arrived
      const kept = await answersFrom('kept');
      expect((await get(admin.token, url)).statusCode).toBe(200);
      expect(await answersFrom('kept')).toBe(kept + 1);
    });

    it("another user's change empties only the lists that read what changed", async () => {
      const writer = await api.userWith('superuser');
      const campaigns = '/api/campaigns/?limit=10&offset=0';
      await get(admin.token, campaigns);
      await folderNames(admin.token);
      const renamed = await call(api, writer.token, 'PATCH', `/api/general_page/${folder.id}/`, {
        name: 'Renamed By Colleague',
      });
      expect(renamed.statusCode, renamed.body).toBe(200);
      await vi.waitFor(async () => expect(await folderNames(admin.token)).toContain('Renamed By Colleague'), {
        timeout: 5_000,
        interval: 20,
      });
      const kept = await answersFrom('kept');
      await get(admin.token, campaigns); // a folder's name is not on the campaigns list
      expect(await answersFrom('kept')).toBe(kept + 1);
    });

    it('Cache-Control: no-cache (a hard reload) reads the database', async () => {
      await folderNames(admin.token);
      const fresh = await answersFrom('fresh');
      await api.dbh.sql.query('update folders set name = $1 where id = $2', ['Renamed Quietly', folder.id]);
      expect(await folderNames(admin.token, { 'cache-control': 'no-cache' })).toContain('Renamed Quietly');
      expect(await answersFrom('fresh')).toBe(fresh + 1);
    });

    it('each list answers everyone it lets in alike, so a kept page is shared by them, after the access check', async () => {
      for (const { url, opensIt } of CACHED) {
        const reader = await api.userWith([opensIt]);
        const outsider = await api.userWith(opensIt === 'view_logs' ? ['read_rules'] : ['view_logs']);
        const forAdmin = await get(admin.token, url, { 'cache-control': 'no-cache' });
        const forReader = await get(reader.token, url, { 'cache-control': 'no-cache' });
        expect(forReader.statusCode, `${url}: ${forReader.body}`).toBe(200);
        expect(forReader.body, url).toBe(forAdmin.body);
        expect((await get(outsider.token, url)).statusCode, url).toBe(403);
        const kept = await answersFrom('kept');
        expect((await get(reader.token, url)).body, url).toBe(forAdmin.body);
        expect(await answersFrom('kept'), url).toBe(kept + 1);
      }
    });

    it("a colleague's write through the API is seen by their next request while others keep the shared page", async () => {
      const writer = await api.userWith('superuser');
      await folderNames(admin.token);
      await folderNames(writer.token); // admin's page, shared
      const renamed = await call(api, writer.token, 'PATCH', `/api/general_page/${folder.id}/`, {
        name: 'Renamed By Writer',
      });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(await folderNames(writer.token)).toContain('Renamed By Writer');
      await vi.waitFor(async () => expect(await folderNames(admin.token)).toContain('Renamed By Writer'), {
        timeout: 5_000,
        interval: 20,
      });
    });

    it('every table either tells the lists it changed or is one no cached list reads', async () => {
      const { rows: tables } = await api.dbh.sql.query<{ table_name: string; notifies: boolean }>(
        `select c.relname as table_name,
                exists (select 1 from pg_trigger t where t.tgrelid = c.oid and t.tgname = c.relname || '_data_changed') as notifies
           from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind in ('r', 'p')`,
      );
      const quiet = tables.filter((t) => !t.notifies).map((t) => t.table_name);
      expect(quiet.sort()).toEqual([...QUIET_TABLES].sort());

      // What the cached lists run, and the bodies of the database functions they call. The signed-in
      // user is read (and kept) first, so that authentication's own statements are not counted.
      await get(admin.token, '/api/user/me/');
      await rm(captureFile, { force: true });
      for (const url of CACHED_LISTS)
        expect((await get(admin.token, url, { 'cache-control': 'no-cache' })).statusCode).toBe(200);
      await call(api, admin.token, 'GET', '/api/log/?search=Kept&limit=10', undefined);
      await get(admin.token, '/api/rule_log/?search=Kept&limit=10', { 'cache-control': 'no-cache' });
      const statements = (await readFile(captureFile, 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).sql as string);
      const { rows: functions } = await api.dbh.sql.query<{ name: string; body: string }>(
        `select p.proname as name, p.prosrc as body from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public'`,
      );
      const read = statements.flatMap((s) => [s, ...functions.filter((f) => s.includes(f.name)).map((f) => f.body)]);
      expect(read.length).toBeGreaterThan(CACHED_LISTS.length);
      for (const table of QUIET_TABLES)
        for (const text of read) expect(text, `a cached list reads ${table}`).not.toMatch(new RegExp(`\\b${table}\\b`));
    });

    it('a change to any table a list reads empties that list', async () => {
      const { rows } = await api.dbh.sql.query<{ table_name: string }>(
        `select c.relname as table_name from pg_trigger t join pg_class c on c.oid = t.tgrelid
          where t.tgname = c.relname || '_data_changed'`,
      );
      const notifying = rows.map((r) => r.table_name);
      await get(admin.token, '/api/user/me/');
      for (const url of CACHED_LISTS) {
        await rm(captureFile, { force: true });
        expect((await get(admin.token, url, { 'cache-control': 'no-cache' })).statusCode).toBe(200);
        const statements = (await readFile(captureFile, 'utf8'))
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l).sql as string)
          .join('\n');
        const reads = notifying.filter((table) => new RegExp(`"${table}"`).test(statements));
        expect(reads.length, url).toBeGreaterThan(0);
        for (const table of reads) {
          await get(admin.token, url);
          await get(admin.token, url); // kept
          await api.dbh.sql.query(`delete from "${table}" where false`); // a statement: the trigger fires
          await vi.waitFor(
            async () => {
              const read = await answersFrom('read');
              await get(admin.token, url);
              expect(await answersFrom('read'), `${url} after a change to ${table}`).toBe(read + 1);
            },
            { timeout: 5_000, interval: 20 },
          );
        }
      }
    });
  });
});
