import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { DbHandle } from '../../../server/db/client';
import { ruleRuns } from '../../../server/db/schema/index';
import { runSlot } from '../../../server/run/pipeline/runBatch';
import { expandObjects } from '../../../server/judgement/runRecord';
import { createRuleEngineService } from '../../../server/run/requestedRuns';
import { createSnapshotStore } from '../../../server/run/accountSnapshots';
import { eachDatabase, freshDatabase } from '../../support/db';
import { engineContext, quietLog, seedAccount, seedRule, startFrozenSimulator } from './support';

const HOUR_MS = 3_600_000;
const START = Date.parse('2026-03-02T15:00:00Z');

eachDatabase((engine) => {
  describe(`Preview judges as a run would, on ${engine}`, () => {
    let dbh: DbHandle;
    let world: Awaited<ReturnType<typeof startFrozenSimulator>>;

    beforeAll(async () => {
      dbh = await freshDatabase(engine);
      world = await startFrozenSimulator();
    });
    afterAll(async () => {
      await world.sim.close();
      await dbh.close();
    });

    /** At simulated hour `h` after the start: what Preview lists, then what a run turns off and each verdict. */
    async function previewThenRun(ruleId: number, h: number) {
      const at = new Date(START + h * HOUR_MS);
      world.sim.clock.set(at.getTime());
      const now = () => at;
      const service = createRuleEngineService({ db: dbh.db, client: world.client, now, log: quietLog });
      const preview = await service.preview(ruleId);
      const ctx = engineContext(dbh.db, world.client, now, {
        snapshots: createSnapshotStore(dbh.db, { client: world.client, now, pollMs: 20 }),
      });
      const result = await runSlot(ctx, { ruleId, slot: at, kind: 'run' });
      const [run] = await dbh.db
        .select({ details: ruleRuns.details })
        .from(ruleRuns)
        .where(eq(ruleRuns.id, result.runId!));
      const verdicts = new Map(expandObjects(run!.details).map((o) => [o.id, o.verdicts.spend_cpl_no_leads]));
      return {
        previewed: preview.results.map((r) => r.ad_id).sort(),
        turnedOff: result.turnedOff.map((e) => e.adId!).sort(),
        verdicts,
      };
    }

    it('leaves alone a young late converter and an ad turned back on by hand, and turns off the dud, in both', async () => {
      const account = await seedAccount(dbh.db, world.home);
      const { rule } = await seedRule(dbh.db, account.adAccountId, {
        everyDayAt: Array.from({ length: 24 }, (_, h) => h),
        contains: ['Scenario Late Converter', 'Scenario True Dud'],
        tasks: { spend_cpl_no_leads: { spend: '30' } },
        judging: { maturity_hours: 24, maturity_impressions: 1000, lag_hours: 24, cooldown_hours: 24 },
      });
      const [late] = world.sim.scenario('late_converter').adIds;
      const [dud] = world.sim.scenario('true_dud').adIds;

      // Two hours in, both have delivered 22 hours: over $30 with no lead reported, but too early.
      const young = await previewThenRun(rule.id, 2);
      expect(young.verdicts.get(late!)).toBe('too_early');
      expect(young.verdicts.get(dud!)).toBe('too_early');
      expect(young.turnedOff).toEqual([]);
      expect(young.previewed).toEqual(young.turnedOff);

      // A day and a half later the dud's spend of more than 24 hours ago crosses $30: both turn it off.
      const judged = await previewThenRun(rule.id, 40);
      expect(judged.turnedOff).toContain(dud);
      expect(judged.previewed).toEqual([dud]);
      expect(judged.turnedOff).toEqual(judged.previewed);

      // Someone turns the dud back on in Ads Manager: neither Preview nor the run turns it off again.
      await world.client.setStatuses([{ id: dud!, status: 'ACTIVE' }]);
      const cooling = await previewThenRun(rule.id, 42);
      expect(cooling.verdicts.get(dud!)).toBe('cooling_down');
      expect(cooling.turnedOff).toEqual([]);
      expect(cooling.previewed).toEqual([]);
    });
  });
});
