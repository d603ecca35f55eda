/**
 * Backup and restore of the embedded database, through the real commands (`npm run backup`,
 * `npm run restore`, run as processes): a backup taken from the serving process while it keeps
 * writing holds whole transactions only; restored on a stopped product it brings back every table
 * as it was — users, groups, folders, rules, run history, activity, held runs, metric history;
 * a restore refuses to run under a live product, and keeps the database it replaces.
 */
import { execFile } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { serveBackups } from '../../../server/db/backup';
import { type DbHandle, openDatabase } from '../../../server/db/client';
import { auditLog, folders, groups, userGroups, users } from '../../../server/db/schema/index';
import { createCredentialCipher } from '../../../server/rules/credentials';
import { table as alertDestinations } from '../../../shared/resources/alertDestinations';
import { createRuleEngineService } from '../../../server/run/requestedRuns';
import { FakePlatform, quietLog, seedAccount, seedRule } from '../run/support';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const run = promisify(execFile);

/** `npm run <script> args` with DATA_DIR set (and CREDENTIALS_KEY unset); answers its exit code and output. */
async function npmScript(script: 'backup' | 'restore', dataDir: string, ...args: string[]) {
  return npmScriptWith({}, script, dataDir, ...args);
}

async function npmScriptWith(
  env: Record<string, string>,
  script: 'backup' | 'restore',
  dataDir: string,
  ...args: string[]
) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', `scripts/${script}.ts`, ...args], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', CREDENTIALS_KEY: '', ...env },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

/** Every table's row count and a hash of its rows. */
async function tableDigests(dbh: DbHandle): Promise<Record<string, string>> {
  const { rows: tables } = await dbh.sql.query<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = 'public' order by 1",
  );
  const digests: Record<string, string> = {};
  for (const { name } of tables) {
    const { rows } = await dbh.sql.query<{ n: number; digest: string | null }>(
      `select count(*)::int as n, md5(string_agg(t::text, '|' order by t::text)) as digest from "${name}" t`,
    );
    digests[name] = `${rows[0]!.n}:${rows[0]!.digest ?? ''}`;
  }
  return digests;
}

const rowCount = (digest: string) => Number(digest.split(':')[0]);

describe('npm run backup and npm run restore (embedded database)', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('round-trips everything, taken while the product writes, restored on a stopped product', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'ad-rules-backup-'));
    const elsewhere = await mkdtemp(path.join(tmpdir(), 'ad-rules-backup-file-'));
    dirs.push(dataDir, elsewhere);
    const file = path.join(elsewhere, 'backup.tar.gz');

    const dbh = await openDatabase({ dataDir });
    await dbh.migrate();
    const stopServing = await serveBackups(dataDir, dbh, (message) => quietLog.warn(message));
    const { db } = dbh;

    // People.
    const [group] = await db
      .insert(groups)
      .values({ name: 'Editors', accesses: ['read_rules'] })
      .returning();
    const [user] = await db
      .insert(users)
      .values({ email: 'kept@example.com', passwordHash: 'x', firstName: 'Kept', lastName: 'User' })
      .returning();
    await db.insert(userGroups).values({ userId: user!.id, groupId: group!.id, position: 0 });
    // Folders and rules; runs that act (activity, history) and one that is held.
    const platform = new FakePlatform();
    const account = (await seedAccount(db)).adAccountId;
    platform.addCampaign(account, 'c1', 'EDM EP-W 2026-03-04 6PM');
    for (const id of ['a1', 'a2', 'a3']) platform.addAd(account, 'c1', id, { spend: '300' });
    platform.addAd(account, 'c1', 'quiet', { spend: '1' });
    const held = await seedRule(db, account, { tasks: { spend_cpl_no_leads: { spend: '100' } } });
    const engine = createRuleEngineService({ db, client: platform, log: quietLog });
    const actor = { id: user!.id, first_name: 'Kept', last_name: 'User', email: 'kept@example.com' };
    expect((await engine.runNow(held.rule.id, actor)).status).toBe('held');
    const acting = await seedRule(db, account, { tasks: { spend_cpl_no_leads: { spend: '250' } } });
    const lenient = createRuleEngineService({
      db,
      client: platform,
      log: quietLog,
      limits: { maxShare: 1, maxActions: 100 },
    });
    expect((await lenient.runNow(acting.rule.id, actor)).status).toBe('done');

    const before = await tableDigests(dbh);
    for (const table of ['users', 'groups', 'folders', 'rules', 'rule_runs', 'rule_activity', 'ad_metric_history'])
      expect(rowCount(before[table]!), table).toBeGreaterThan(0);

    // Writes go on while the backup is taken: each transaction adds two log entries.
    let writing = true;
    let pairs = 0;
    let firstPairWritten = () => {};
    const writingStarted = new Promise<void>((resolve) => {
      firstPairWritten = resolve;
    });
    const writer = (async () => {
      while (writing) {
        pairs += 1;
        await db.transaction(async (tx) => {
          await tx.insert(auditLog).values({ action: `pair ${pairs} first`, changesText: '' });
          // Held open a moment between its halves: the load under test is a transaction in flight.
          await new Promise((resolve) => setTimeout(resolve, 5));
          await tx.insert(auditLog).values({ action: `pair ${pairs} second`, changesText: '' });
        });
        firstPairWritten();
      }
    })();
    await Promise.race([writingStarted, writer]);
    const backup = await npmScript('backup', dataDir, file);
    writing = false;
    await writer;
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toContain('(running server)');
    expect(statSync(file).mode & 0o777).toBe(0o600);

    // Not while the product runs.
    const refused = await npmScript('restore', dataDir, file);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('the product is running on this DATA_DIR: stop it first');

    await stopServing();
    await dbh.close();
    const restore = await npmScript('restore', dataDir, file);
    expect(restore.code, restore.output).toBe(0);
    expect(restore.output).toMatch(/Restored .* \d+ users, 1 groups, 2 folders, 2 rules/);
    expect(readdirSync(dataDir).some((entry) => entry.startsWith('pgdata.before-restore-'))).toBe(true);

    const restored = await openDatabase({ dataDir });
    try {
      const after = await tableDigests(restored);
      // The log (and its names index) also holds what was written while the backup was taken.
      const { audit_log: auditBefore, audit_log_names: _namesBefore, ...restBefore } = before;
      const { audit_log: auditAfter, audit_log_names: _namesAfter, ...restAfter } = after;
      expect(restAfter).toEqual(restBefore);
      // The log entries written during the backup: whole transactions only.
      const { rows } = await restored.sql.query<{ action: string }>(
        "select action from audit_log where action like 'pair %'",
      );
      const halves = new Map<string, number>();
      for (const { action } of rows) halves.set(action.split(' ')[1]!, (halves.get(action.split(' ')[1]!) ?? 0) + 1);
      expect([...halves.values()].every((n) => n === 2)).toBe(true);
      expect(rowCount(auditAfter!)).toBe(rowCount(auditBefore!) + rows.length);
      const heldRuns = await restored.sql.query<{ n: number }>(
        "select count(*)::int as n from rule_runs where outcome = 'held' and decision is null",
      );
      expect(heldRuns.rows[0]!.n).toBe(1);
    } finally {
      await restored.close();
    }
  }, 180_000);

  it('backs up a stopped product by opening its database, and refuses a file that is no backup', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'ad-rules-backup-stopped-'));
    dirs.push(dataDir);
    const dbh = await openDatabase({ dataDir });
    await dbh.migrate();
    await dbh.db.insert(groups).values({ name: 'Only group', accesses: [] });
    await dbh.close();

    const file = path.join(dataDir, 'copy.tar.gz');
    const backup = await npmScript('backup', dataDir, file);
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toContain('(stopped database)');

    const junk = await npmScript('restore', dataDir, path.join(ROOT, 'package.json'));
    expect(junk.code).toBe(1);
    expect(junk.output).toContain('is not a backup of the embedded database');
    // A gzip that holds no tar archive either (PGlite's loader crashed on such files now and then).
    const notTar = path.join(dataDir, 'not-a-tar.tar.gz');
    await writeFile(notTar, gzipSync(Buffer.from('just some text, not a data dir')));
    const gzipped = await npmScript('restore', dataDir, notTar);
    expect(gzipped.code).toBe(1);
    expect(gzipped.output).toContain('is not a backup of the embedded database (not a tar archive)');
    expect(existsSync(path.join(dataDir, 'pgdata', 'PG_VERSION'))).toBe(true);
  }, 120_000);
  it('writes the backup as a new 0600 file: over an existing 0644 file, and over a symlink without following it', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'ad-rules-backup-mode-'));
    const elsewhere = await mkdtemp(path.join(tmpdir(), 'ad-rules-backup-mode-file-'));
    dirs.push(dataDir, elsewhere);
    const dbh = await openDatabase({ dataDir });
    await dbh.migrate();
    await dbh.close();

    const existing = path.join(elsewhere, 'existing.tar.gz');
    await writeFile(existing, 'an older backup');
    await chmod(existing, 0o644);
    const overExisting = await npmScript('backup', dataDir, existing);
    expect(overExisting.code, overExisting.output).toBe(0);
    expect(lstatSync(existing).isFile()).toBe(true);
    expect(lstatSync(existing).mode & 0o777).toBe(0o600);
    expect(lstatSync(existing).size).toBeGreaterThan(1000);

    const victim = path.join(elsewhere, 'victim.txt');
    await writeFile(victim, 'not yours to overwrite');
    await chmod(victim, 0o644);
    const link = path.join(elsewhere, 'link.tar.gz');
    await symlink(victim, link);
    const overLink = await npmScript('backup', dataDir, link);
    expect(overLink.code, overLink.output).toBe(0);
    expect(lstatSync(link).isFile()).toBe(true);
    expect(lstatSync(link).mode & 0o777).toBe(0o600);
    expect(await readFile(victim, 'utf8')).toBe('not yours to overwrite');
    expect(statSync(victim).mode & 0o777).toBe(0o644);
    // Nothing left beside them but the two backups and the untouched file.
    expect(readdirSync(elsewhere).sort()).toEqual(['existing.tar.gz', 'link.tar.gz', 'victim.txt']);
    // It says the key is not in it.
    expect(overLink.output).toContain('credentials.secret with it');
  }, 120_000);

  it('reports how many stored secrets the key where it restores cannot read', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'ad-rules-backup-keys-'));
    const elsewhere = await mkdtemp(path.join(tmpdir(), 'ad-rules-backup-keys-new-'));
    dirs.push(dataDir, elsewhere);
    const key = 'the-key-the-backup-was-taken-under-0123456789';
    const cipher = createCredentialCipher(key);
    const dbh = await openDatabase({ dataDir });
    await dbh.migrate();
    const account = (await seedAccount(dbh.db)).adAccountId;
    const demio = cipher.encrypt({ api_key: 'key-1234567890', api_secret: 'secret-1234567890' });
    await dbh.db.insert(folders).values([
      { name: 'With credentials', clientType: 'EDM', plan: 'p', adAccountId: account, demioCredentials: demio },
      { name: 'Without', clientType: 'EDM', plan: 'p', adAccountId: account },
    ]);
    await dbh.db
      .insert(alertDestinations)
      .values({ name: 'Ops', url: cipher.encryptText('https://hooks.slack.com/services/T/B/x') });
    await dbh.close();
    const file = path.join(dataDir, 'with-secrets.tar.gz');
    expect((await npmScript('backup', dataDir, file)).code).toBe(0);

    // Elsewhere with no key at all: nothing can be read, and no key is made up.
    const noKey = await npmScript('restore', elsewhere, file);
    expect(noKey.code, noKey.output).toBe(0);
    expect(noKey.output).toContain('2 of 2 stored secrets cannot be read with this key');
    expect(noKey.output).toContain('1 folders (webinar credentials), 1 alert destinations (webhook url)');
    expect(noKey.output).toContain('needs re-entry');
    expect(existsSync(path.join(elsewhere, 'credentials.secret'))).toBe(false);

    // Another key.
    const otherKey = await npmScriptWith(
      { CREDENTIALS_KEY: 'some-other-key-of-at-least-32-bytes!!' },
      'restore',
      elsewhere,
      file,
    );
    expect(otherKey.output).toContain('2 of 2 stored secrets cannot be read with this key (CREDENTIALS_KEY)');

    // The key kept with the backup, as the key file.
    await writeFile(path.join(elsewhere, 'credentials.secret'), key);
    const keyKept = await npmScript('restore', elsewhere, file);
    expect(keyKept.code, keyKept.output).toBe(0);
    expect(keyKept.output).not.toContain('cannot be read');
    expect(keyKept.output).toContain('Every stored secret (2) can be read');
  }, 180_000);
});
