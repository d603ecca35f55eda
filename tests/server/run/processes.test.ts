/**
 * Worker processes sharing one database: two workers racing for the same slots act once; a worker
 * killed in the middle of a batch (one account's rules) is taken over by a fresh one, with no double action and no lost
 * slot. Each worker is a real child process (tests/server/run/workerProcess.ts) talking to the
 * Graph simulator over HTTP. PostgreSQL is what many processes share, so this runs on PostgreSQL
 * only (the test server of tests/support/globalDb.ts); on PGlite, one process owns the database and
 * the in-process races of engine-run.test.ts cover the same claims.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import type { Simulator } from '../../../server/adplatform/simulator/index';
import type { DbHandle } from '../../../server/db/client';
import { ruleActivity, ruleRuns, rules } from '../../../server/db/schema/index';
import { evaluate } from '../../../server/judgement/evaluate';
import { loadEngineRule } from '../../../server/run/rulesSource';
import { fetchAccountSnapshot } from '../../../server/run/accountSnapshots';
import { waitUntil } from '../../support/waitUntil';
import { sharedDatabase } from './serverProcesses';
import { seedAccount, seedRule, startFrozenSimulator } from './support';

const WORKER = path.join(import.meta.dirname, 'workerProcess.ts');
const START = '2026-03-02T15:00:00Z'; // a Monday, 15:00 UTC
const MONDAY = 1;

interface Worker {
  child: ChildProcess;
  lines: Record<string, unknown>[];
  exited: Promise<number | null>;
}

function startWorker(env: Record<string, string>): Worker {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Record<string, unknown>[] = [];
  let buffer = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split('\n');
    buffer = parts.pop()!;
    for (const line of parts) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
  });
  child.stderr!.on('data', (chunk: Buffer) => lines.push({ stderr: chunk.toString() }));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, lines, exited };
}

async function stopWorker(worker: Worker, signal: NodeJS.Signals = 'SIGTERM') {
  if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill(signal);
  await worker.exited;
}

/** Rules over every campaign of both simulated accounts that turn off any ad with a lead. */
async function seedRacingRules(
  dbh: DbHandle,
  sim: Simulator,
  perAccount: number,
  hour: number,
  accounts = sim.world.accounts.length,
) {
  const ruleIds: number[] = [];
  for (const account of sim.world.accounts.slice(0, accounts)) {
    const adAccountId = `act_${account.accountId}`;
    await seedAccount(dbh.db, { adAccountId, accountName: account.name, timezoneName: account.timezone });
    for (let i = 0; i < perAccount; i += 1) {
      const { rule } = await seedRule(dbh.db, adAccountId, {
        hours: [[MONDAY, hour]],
        contains: ['-'],
        tasks: { trigger_cpl: { cpl: '0.01' } },
      });
      ruleIds.push(rule.id);
    }
  }
  return ruleIds;
}

/** What the rules should turn off, worked out beforehand through the same evaluator. */
async function expectedTurnOffs(dbh: DbHandle, client: Parameters<typeof fetchAccountSnapshot>[0], ruleIds: number[]) {
  const ids = new Set<string>();
  for (const ruleId of ruleIds) {
    const rule = (await loadEngineRule(dbh.db, ruleId))!;
    const snapshot = await fetchAccountSnapshot(client, rule.account.adAccountId, 'USD');
    for (const action of evaluate(rule, snapshot).actions) ids.add(action.objectId);
  }
  return ids;
}

const runsDone = (dbh: DbHandle, ruleIds: number[]) => async () =>
  (await dbh.db.select().from(ruleRuns).where(inArray(ruleRuns.ruleId, ruleIds))).filter(
    (r) => r.kind === 'run' && r.status === 'done',
  ).length;

describe('worker processes on PostgreSQL', () => {
  const workers: Worker[] = [];
  const cleanups: (() => Promise<void>)[] = [];

  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => stopWorker(w)));
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  let db: Awaited<ReturnType<typeof sharedDatabase>>;
  beforeAll(async () => {
    db = await sharedDatabase();
    cleanups.push(() => db.drop());
  });

  async function world(seed: number) {
    const w = await startFrozenSimulator({ start: START, seed });
    cleanups.push(() => w.sim.close());
    return w;
  }

  it('two workers racing through the queue for the same slots turn each ad off once', async () => {
    const { sim, client } = await world(21);
    const ruleIds = await seedRacingRules(db.dbh, sim, 6, 15);
    const expected = await expectedTurnOffs(db.dbh, client, ruleIds);
    expect(expected.size).toBeGreaterThan(3);

    const env = { DATABASE_URL: db.url, GRAPH_URL: sim.url, ENGINE_NOW: '2026-03-02T15:00:30Z', MODE: 'queue' };
    workers.push(startWorker(env), startWorker(env));
    await waitUntil(runsDone(db.dbh, ruleIds), 'every run to finish', {
      until: (n) => n === ruleIds.length,
      intervalMs: 250,
    });

    const entries = await db.dbh.db.select().from(ruleActivity).where(inArray(ruleActivity.ruleId, ruleIds));
    const offs = entries.filter((e) => e.action === 'turn_off_ad');
    expect(new Set(offs.map((e) => e.adId))).toEqual(expected);
    expect(offs).toHaveLength(expected.size); // one entry per ad, whichever rule got it
    expect(entries.filter((e) => e.action !== 'turn_off_ad')).toEqual([]);
    const writesPerAd = new Map<string, number>();
    for (const write of sim.writes) writesPerAd.set(write.id, (writesPerAd.get(write.id) ?? 0) + 1);
    expect([...writesPerAd.keys()].sort()).toEqual([...expected].sort());
    expect([...writesPerAd.values()].every((n) => n === 1)).toBe(true);
    const finished = workers.flatMap((w) => w.lines.filter((l) => 'done' in l).map((l) => l.done));
    expect(finished.sort()).toEqual([...ruleIds].sort()); // each (rule, slot) job ran once in all
  }, 120_000);

  it('two workers running the very same slots at the same moment act once (duplicated jobs)', async () => {
    const { sim, client } = await world(22);
    const ruleIds = await seedRacingRules(db.dbh, sim, 4, 16);
    const expected = await expectedTurnOffs(db.dbh, client, ruleIds);
    expect(expected.size).toBeGreaterThan(3);
    const env = {
      DATABASE_URL: db.url,
      GRAPH_URL: sim.url,
      ENGINE_NOW: '2026-03-02T16:00:30Z',
      MODE: 'direct',
      RULE_IDS: ruleIds.join(','),
      SLOT: '2026-03-02T16:00:00Z',
    };
    const pair = [startWorker(env), startWorker(env)];
    workers.push(...pair);
    expect(await Promise.all(pair.map((w) => w.exited))).toEqual([0, 0]);

    const results = pair.flatMap((w) => w.lines.filter((l) => 'done' in l));
    expect(results).toHaveLength(ruleIds.length * 2);
    // Each slot was run by one process; the other found it done or under way.
    for (const ruleId of ruleIds) {
      const statuses = results
        .filter((r) => r.done === ruleId)
        .map((r) => r.status)
        .sort();
      expect(
        ['done', 'already_done', 'in_progress'].includes(statuses[1] as string) &&
          statuses.filter((s) => s === 'done').length,
      ).toBe(1);
    }
    const offs = (await db.dbh.db.select().from(ruleActivity).where(inArray(ruleActivity.ruleId, ruleIds))).filter(
      (e) => e.action === 'turn_off_ad',
    );
    expect(offs.map((e) => e.adId).sort()).toEqual([...expected].sort());
    expect(sim.writes.map((w) => w.id).sort()).toEqual([...expected].sort());
  }, 120_000);

  it('two workers running the same budget rules at the same moment raise each budget once', async () => {
    const { sim } = await world(24);
    const ruleIds: number[] = [];
    const account = sim.world.accounts[0]!;
    const adAccountId = `act_${account.accountId}`;
    await seedAccount(db.dbh.db, { adAccountId, accountName: account.name, timezoneName: account.timezone });
    for (let i = 0; i < 3; i += 1) {
      const { rule } = await seedRule(db.dbh.db, adAccountId, { hours: [[MONDAY, 17]], contains: ['-'], tasks: {} });
      await db.dbh.db
        .update(rules)
        .set({
          conditions: { match: 'all', conditions: [{ metric: 'spend', window: 'lifetime', op: '>', value: 1 }] },
          // The seeded campaigns hold their budgets (Advantage campaign budget).
          action: { kind: 'raise_budget', level: 'campaign', change: { percent: 10 } },
        })
        .where(eq(rules.id, rule.id));
      ruleIds.push(rule.id);
    }
    const env = {
      DATABASE_URL: db.url,
      GRAPH_URL: sim.url,
      ENGINE_NOW: '2026-03-02T17:00:30Z',
      MODE: 'direct',
      RULE_IDS: ruleIds.join(','),
      SLOT: '2026-03-02T17:00:00Z',
    };
    const pair = [startWorker(env), startWorker(env)];
    workers.push(...pair);
    expect(await Promise.all(pair.map((w) => w.exited))).toEqual([0, 0]);

    const raises = (await db.dbh.db.select().from(ruleActivity).where(inArray(ruleActivity.ruleId, ruleIds))).filter(
      (e) => e.action === 'raise_budget',
    );
    const budgetWrites = sim.writes.filter((w) => 'daily_budget' in w.changed);
    expect(raises.length).toBeGreaterThan(1);
    // One raise of each campaign, whichever rule and process got there first, each written once.
    expect(new Set(raises.map((e) => e.adId)).size).toBe(raises.length);
    expect(budgetWrites.map((w) => w.id).sort()).toEqual(raises.map((e) => e.adId!).sort());
    for (const entry of raises) {
      expect(entry.state).toBe('done');
      expect(sim.world.campaigns.get(entry.adId!)!.dailyBudgetCents).toBe(entry.budgetAfter);
      expect(entry.budgetAfter).toBe(Math.round(entry.budgetBefore! * 1.1));
    }
  }, 120_000);

  it('a worker killed in the middle of a batch is taken over by its missed heartbeats, not its expiry: no double action, no lost slot', async () => {
    const { sim, client } = await world(23);
    // Three rules of one account: one job, one batch, one status change in flight when the worker dies.
    const ruleIds = await seedRacingRules(db.dbh, sim, 3, 17, 1);
    const expected = await expectedTurnOffs(db.dbh, client, ruleIds);
    expect(expected.size).toBeGreaterThan(1);
    // The status change hangs, so the worker is caught between claiming and confirming.
    sim.addFault({ kind: 'slow', ms: 4000, match: { method: 'POST' }, count: 1 });
    const env = {
      DATABASE_URL: db.url,
      GRAPH_URL: sim.url,
      ENGINE_NOW: '2026-03-02T17:00:30Z',
      MODE: 'queue',
      // The product's queue settings: the job's expiry is 10 minutes, so a takeover within this
      // test's wait is the heartbeat's doing (docs/operations.md; bench --soak measures the seconds).
      QUEUE_TUNING: 'production',
    };
    const first = startWorker(env);
    workers.push(first);
    await waitUntil(
      async () => first.lines.some((l) => 'sending' in l),
      'the first worker to send its status changes',
      { timeoutMs: 30_000, intervalMs: 250 },
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${JSON.stringify(first.lines)}`);
    });
    await stopWorker(first, 'SIGKILL');

    const ofRules = () => db.dbh.db.select().from(ruleActivity).where(inArray(ruleActivity.ruleId, ruleIds));
    const pending = await ofRules();
    expect(pending.map((e) => e.state)).toEqual([...expected].map(() => 'pending'));
    const running = await db.dbh.db.select().from(ruleRuns).where(inArray(ruleRuns.ruleId, ruleIds));
    expect(running.map((r) => [r.status, r.attempts])).toEqual(ruleIds.map(() => ['running', 1]));

    const second = startWorker({ ...env });
    workers.push(second);
    await waitUntil(runsDone(db.dbh, ruleIds), 'the second worker to finish', {
      until: (n) => n === ruleIds.length,
      timeoutMs: 150_000,
      intervalMs: 250,
    }).catch(async (error: Error) => {
      const jobs = await db.dbh.sql.query(
        "select name, state, retry_count, started_on, created_on from pgboss.job where name like 'rule-%'",
      );
      throw new Error(`${error.message}\n${JSON.stringify(second.lines)}\n${JSON.stringify(jobs.rows)}`);
    });
    const entries = await ofRules();
    expect(entries.map((e) => [e.action, e.state]).sort()).toEqual([...expected].map(() => ['turn_off_ad', 'done']));
    expect(new Set(entries.map((e) => e.adId))).toEqual(expected);
    for (const adId of expected) expect(sim.inspect(adId).status).toBe('PAUSED');
    const ledger = await db.dbh.db.select().from(ruleRuns).where(inArray(ruleRuns.ruleId, ruleIds));
    expect(ledger.map((r) => [r.status, r.attempts])).toEqual(ruleIds.map(() => ['done', 2]));
    const [job] = (
      await db.dbh.sql.query<{ retry_count: number; output: unknown }>(
        "select retry_count, output from pgboss.job where name = 'rule-run' and state = 'completed' order by created_on desc limit 1",
      )
    ).rows;
    expect(job!.retry_count).toBe(1); // failed once, by its missed heartbeats, then run again
  }, 240_000);
});
