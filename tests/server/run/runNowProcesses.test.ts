/**
 * Run now on two server processes (server/main.ts, ROLE=api) sharing one PostgreSQL database and
 * one Graph simulator whose status changes answer slowly: a Run now pressed while another's
 * turn-off is still in flight, or at the same moment on the other process, pauses each ad once,
 * with one Activity entry; a process killed (kill -9) with its write in flight leaves a run that
 * the process still alive settles — the turn-off read back and recorded once, the run closed.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../../server/adplatform/simulator/index';
import type { GraphClient } from '../../../server/adplatform/graphClient';
import { ruleActivity, ruleRuns } from '../../../server/db/schema/index';
import { evaluate } from '../../../server/judgement/evaluate';
import { loadEngineRule } from '../../../server/run/rulesSource';
import { fetchAccountSnapshot } from '../../../server/run/accountSnapshots';
import { waitUntil } from '../../support/waitUntil';
import { sharedDatabase, startServer, type ServerProcess } from './serverProcesses';
import { seedAccount, seedRule, startFrozenSimulator } from './support';

const WRITE_MS = 1_500; // a slow Graph write (p95 1.6 s)

describe('Run now on two server processes on PostgreSQL', () => {
  let db: Awaited<ReturnType<typeof sharedDatabase>>;
  let sim: Simulator;
  let client: GraphClient;
  let home: { adAccountId: string; accountName: string; timezoneName: string };
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    db = await sharedDatabase();
    ({ sim, client, home } = await startFrozenSimulator({ seed: 31 }));
    await seedAccount(db.dbh.db, home);
    [a, b] = await Promise.all([
      startServer({ databaseUrl: db.url, graphUrl: sim.url }),
      startServer({ databaseUrl: db.url, graphUrl: sim.url }),
    ]);
  }, 240_000);
  afterAll(async () => {
    await Promise.all([a?.kill('SIGKILL'), b?.kill('SIGKILL')]);
    await sim?.close();
    await db?.drop();
  });

  /** A rule turning off every ad of the account with a lead, and the ads it will turn off. */
  async function ruleOverEveryAd() {
    const { rule } = await seedRule(db.dbh.db, home.adAccountId, {
      contains: ['-'],
      tasks: { trigger_cpl: { cpl: '0.01' } },
    });
    const loaded = (await loadEngineRule(db.dbh.db, rule.id))!;
    const snapshot = await fetchAccountSnapshot(client, home.adAccountId, 'USD');
    const expected = evaluate(loaded, snapshot).actions.map((action) => action.objectId);
    expect(expected.length).toBeGreaterThan(1);
    return { ruleId: rule.id, expected };
  }

  /** Every ad of the account delivering again, as a person would switch them back on in Ads Manager. */
  async function switchBackOn(ids: string[]) {
    await client.setStatuses(ids.map((id) => ({ id, status: 'ACTIVE' as const })));
  }

  const writesTo = (ids: string[], since: number) => sim.writes.slice(since).filter((write) => ids.includes(write.id));

  const turnOffsOf = (ruleIds: number[]) =>
    db.dbh.db
      .select()
      .from(ruleActivity)
      .where(and(inArray(ruleActivity.ruleId, ruleIds), inArray(ruleActivity.action, ['turn_off_ad'])));

  it('a Run now started while another process is still pausing the ads pauses each ad once', async () => {
    const { ruleId, expected } = await ruleOverEveryAd();
    const since = sim.writes.length;
    sim.addFault({ kind: 'slow', ms: WRITE_MS, match: { method: 'POST' }, count: 1 });
    const postsBefore = sim.requests.filter((r) => r.method === 'POST').length;

    const first = a.post(`/api/rules/${ruleId}/run_now/`);
    await waitUntil(
      () => sim.requests.filter((r) => r.method === 'POST').length > postsBefore,
      "A's write to reach Graph",
    );
    const second = await b.post(`/api/rules/${ruleId}/run_now/`);
    const firstAnswer = (await (await first).json()) as { turned_off: number };
    const secondAnswer = (await second.json()) as { turned_off: number };

    expect(firstAnswer, JSON.stringify(firstAnswer)).toMatchObject({ turned_off: expected.length });
    expect(secondAnswer, JSON.stringify(secondAnswer)).toMatchObject({ turned_off: 0 });
    expect(
      writesTo(expected, since)
        .map((w) => w.id)
        .sort(),
    ).toEqual([...expected].sort());
    const entries = await turnOffsOf([ruleId]);
    expect(entries.map((e) => e.adId).sort()).toEqual([...expected].sort());
    expect(entries.every((e) => e.state === 'done')).toBe(true);
    await switchBackOn(expected);
  }, 60_000);

  it('Run now pressed at the same moment on both processes pauses each ad once, trial after trial', async () => {
    const { ruleId, expected } = await ruleOverEveryAd();
    for (let trial = 0; trial < 8; trial += 1) {
      const since = sim.writes.length;
      const entriesBefore = (await turnOffsOf([ruleId])).length;
      sim.addFault({ kind: 'slow', ms: 300, match: { method: 'POST' }, count: 2 });
      const answers = await Promise.all([a, b].map((server) => server.post(`/api/rules/${ruleId}/run_now/`)));
      const bodies = (await Promise.all(answers.map((r) => r.json()))) as { turned_off: number }[];

      expect(bodies.map((body) => body.turned_off).sort((x, y) => x - y)).toEqual([0, expected.length]);
      const writes = writesTo(expected, since).map((w) => w.id);
      expect(writes.sort(), `trial ${trial}`).toEqual([...expected].sort());
      expect((await turnOffsOf([ruleId])).length - entriesBefore).toBe(expected.length);
      await switchBackOn(expected);
    }
  }, 180_000);

  it('a process killed with its write in flight leaves a run the other process settles: the pause recorded once', async () => {
    const { ruleId, expected } = await ruleOverEveryAd();
    const doomed = await startServer({ databaseUrl: db.url, graphUrl: sim.url });
    const since = sim.writes.length;
    // The write is held before Graph applies it, and applied after the process that sent it is gone.
    sim.addFault({ kind: 'slow', ms: 3_000, match: { method: 'POST' }, count: 1 });
    const postsBefore = sim.requests.filter((r) => r.method === 'POST').length;
    void doomed.post(`/api/rules/${ruleId}/run_now/`).catch(() => undefined);
    await waitUntil(
      () => sim.requests.filter((r) => r.method === 'POST').length > postsBefore,
      'the write to reach Graph',
    );
    await doomed.kill('SIGKILL');

    const [cutOff] = await db.dbh.db.select().from(ruleRuns).where(eq(ruleRuns.ruleId, ruleId));
    expect(cutOff).toMatchObject({ kind: 'manual', status: 'running' });
    expect((await turnOffsOf([ruleId])).map((e) => e.state)).toEqual(expected.map(() => 'pending'));

    // The processes left find the silent run and settle it: the write landed, so each pause is confirmed.
    const settled = await waitUntil(
      async () => {
        const [row] = await db.dbh.db.select().from(ruleRuns).where(eq(ruleRuns.id, cutOff!.id));
        return row?.status === 'done' ? row : null;
      },
      'the run to be settled',
      { timeoutMs: 90_000 },
    );
    expect(settled.outcome).toBe('done');
    expect(settled.note).toMatch(/settled by another process: \d+ turned off/);
    const entries = await turnOffsOf([ruleId]);
    expect(entries.map((e) => [e.adId, e.state]).sort()).toEqual([...expected].sort().map((id) => [id, 'done']));
    expect(entries.every((e) => /after the run's process stopped/.test(e.reason.Confirmed ?? ''))).toBe(true);
    for (const id of expected) expect(sim.inspect(id).status).toBe('PAUSED');
    expect(
      writesTo(expected, since)
        .map((w) => w.id)
        .sort(),
    ).toEqual([...expected].sort());

    // Run now again on a live process: the ads are off, nothing is paused twice.
    const again = (await (await a.post(`/api/rules/${ruleId}/run_now/`)).json()) as { turned_off: number };
    expect(again.turned_off).toBe(0);
    expect((await turnOffsOf([ruleId])).length).toBe(expected.length);
  }, 240_000);
});
