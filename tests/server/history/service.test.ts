/**
 * An ad account synced for the first time has its metric history filled from the platform's daily
 * and hourly breakdowns (here the simulator's), marked "settled numbers, not as known then", so a
 * rule can be tried on history at once; a later sync does not fill it again.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CampaignSync } from '../../../server/campaigns/sync';
import type { DbHandle } from '../../../server/db/client';
import { HOUR_MS } from '../../../server/history/reading';
import { createMetricHistoryService, fillOnFirstSync } from '../../../server/history/service';
import { historyCoverage } from '../../../server/history/store';
import { loadTimeline, numbersAt } from '../../../server/history/timeline';
import { eachDatabase, freshDatabase } from '../../support/db';
import { startFrozenSimulator } from '../run/support';

eachDatabase((engine) => {
  describe(`metric history filled on ${engine}`, () => {
    let dbh: DbHandle;
    let frozen: Awaited<ReturnType<typeof startFrozenSimulator>>;

    beforeAll(async () => {
      [frozen, dbh] = await Promise.all([startFrozenSimulator(), freshDatabase(engine)]);
    });
    afterAll(async () => {
      await frozen.sim.close();
      await dbh.close();
    });

    it("fills a new account's history at its first sync, as settled numbers, and not again", async () => {
      const { sim, client, home } = frozen;
      const now = () => new Date(sim.clock.now());
      const fills: string[] = [];
      const history = createMetricHistoryService({
        db: dbh.db,
        client,
        historyDays: 7,
        now,
        log: { info: (line) => fills.push(line), warn: (line) => fills.push(line) },
      });
      const sync = new CampaignSync(dbh.db, client, { now });
      fillOnFirstSync(sync, history);

      await sync.syncAll();
      // The fill runs in the background after the sync; wait for its line (a bound, not a speed goal).
      await vi.waitFor(() => expect(fills.join('\n')).toContain(`${home.adAccountId} filled`), { timeout: 60_000 });
      const coverage = await historyCoverage(dbh.db, home.adAccountId);
      expect(coverage.settledReadings).toBe(coverage.readings);
      expect(coverage.days).toBeGreaterThanOrEqual(7);

      // Each delivering ad's latest kept numbers are what the platform reports for it now, late leads included.
      const timeline = await loadTimeline(
        dbh.db,
        home.adAccountId,
        now().getTime() - 7 * 24 * HOUR_MS,
        now().getTime(),
      );
      const ads = await client.listAds(home.adAccountId);
      const goals = new Map(
        (await client.getInsights(home.adAccountId, { level: 'ad' })).map((row) => [row.ad_id, row.optimization_goal]),
      );
      const delivered = timeline.ads.filter((s) => (numbersAt(s, s.latest[timeline.hours - 1]!).spendCents ?? 0) > 0);
      expect(delivered.length).toBeGreaterThan(0);
      for (const series of delivered) {
        expect(ads.map((a) => a.id)).toContain(series.adId);
        const latest = series.latest[timeline.hours - 1]!;
        expect(series.settled[latest]).toBe(1);
        const reported = sim.inspect(series.adId).lifetime as { spend: string };
        expect(numbersAt(series, latest).spendCents).toBe(Math.round(Number(reported.spend) * 100));
        // Its ad set's goal too: an instant-form ad's backtest gets no lag allowance, as a run does.
        expect(series.optimizationGoal).toBe(goals.get(series.adId));
      }

      const filledOnce = fills.filter((line) => line.includes(`${home.adAccountId} filled`)).length;
      expect(filledOnce).toBe(1);
      await sync.syncAll();
      await history.fillIfEmpty(home.adAccountId);
      expect(fills.filter((line) => line.includes(`${home.adAccountId} filled`))).toHaveLength(1);
    });
  });
});

describe('first-sync fills', () => {
  it('run one account at a time, in the order the accounts were synced', async () => {
    const listeners: ((adAccountId: string) => void)[] = [];
    const sync = { onAccountSynced: (listener: (adAccountId: string) => void) => void listeners.push(listener) };
    const events: string[] = [];
    const finish = new Map<string, () => void>();
    const history = {
      fillIfEmpty: (id: string) =>
        new Promise<void>((resolve) => {
          events.push(`start ${id}`);
          finish.set(id, () => {
            events.push(`end ${id}`);
            resolve();
          });
        }),
    };
    fillOnFirstSync(sync, history);
    for (const id of ['act_1', 'act_2', 'act_3']) for (const listener of listeners) listener(id);
    await vi.waitFor(() => expect(events).toEqual(['start act_1']));
    finish.get('act_1')!();
    await vi.waitFor(() => expect(events).toEqual(['start act_1', 'end act_1', 'start act_2']));
    finish.get('act_2')!();
    await vi.waitFor(() => expect(events.at(-1)).toBe('start act_3'));
    finish.get('act_3')!();
    await vi.waitFor(() => expect(events).toHaveLength(6));
  });
});
