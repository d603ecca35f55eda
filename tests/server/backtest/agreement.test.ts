/**
 * The backtest agrees with what really happened: the engine runs a rule live against the simulator
 * over three simulated days (its reads kept in the metric history as always), then the same rule is
 * backtested over the same days — the same turn-offs and revives at the same hours. A small account
 * of the simulator: a late converter (paused as a dud, revived when its late leads arrive), a true
 * dud, a steady converter and four ordinary ads, judged every other hour with revive on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveThenBacktest } from '../../../bench/backtest/agreement';
import type { DbHandle } from '../../../server/db/client';
import { NEW_RULE_JUDGING } from '../../../shared/judging';
import { eachDatabase, freshDatabase } from '../../support/db';

eachDatabase((engine) => {
  describe(`backtest against the live engine on ${engine}`, () => {
    let dbh: DbHandle;

    beforeAll(async () => {
      dbh = await freshDatabase(engine);
    });
    afterAll(() => dbh.close());

    it('pauses and revives the same objects at the same hours as the engine did over three simulated days', async () => {
      const result = await liveThenBacktest(dbh.db, {
        days: 3,
        campaigns: 2,
        adsPerCampaign: 2,
        scenarios: ['late_converter', 'true_dud', 'steady_converter'],
        everyHours: 2,
        judging: { ...NEW_RULE_JUDGING, revive_hours: 72 },
      });
      expect(result.differences).toEqual([]);
      expect(result.agreement).toBe(1);
      expect(result.revives).toBeGreaterThanOrEqual(1);
      expect(result.pauses - result.revives).toBeGreaterThanOrEqual(2);
    });
  });
});
