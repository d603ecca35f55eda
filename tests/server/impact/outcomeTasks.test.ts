/**
 * The impact report on a rule with an outcome task, on each database: a turn-off by cost per
 * attendee is a false pause only when what the leads became, as known now, no longer crosses it —
 * not merely because the metric history alone knows nothing of show-ups.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../../server/db/client';
import { ruleActivity } from '../../../server/db/schema/index';
import { impactReport } from '../../../server/impact/report';
import { eachDatabase, freshDatabase } from '../../support/db';
import { readAt, seedWebinar } from '../backtest/support';
import { seedAccount, seedRule } from '../run/support';

const NOW = new Date('2024-03-05T12:00:00Z');
const START = Date.parse('2024-03-04T00:00:00Z');
const HOUR_MS = 3_600_000;

eachDatabase((engine) => {
  describe(`impact of outcome tasks on ${engine}`, () => {
    let dbh: DbHandle;
    let ruleId: number;

    beforeAll(async () => {
      dbh = await freshDatabase(engine);
      const db = dbh.db;
      const { adAccountId } = await seedAccount(db);
      const { folder, rule } = await seedRule(db, adAccountId, {
        tasks: { cost_per_attendee: { cost: '40', min_registrations: '10' } },
      });
      ruleId = rule.id;
      // $10 an hour each from 2024-03-04 00:00 until both are turned off at 2024-03-05 06:00.
      for (let t = 0; t <= 36; t += 1)
        await readAt(
          db,
          adAccountId,
          new Date(START + t * HOUR_MS + 20_000).toISOString(),
          ['pricey', 'rescued'].map((id) => ({
            id,
            campaignId: id === 'pricey' ? 'c1' : 'c2',
            spend: 10 * Math.min(t, 30),
            leads: 40,
            on: t < 30,
          })),
        );
      // The webinar of 20:00 ($200 spent by then), as known now: 1 of pricey's 40 registrants came ($200
      // an attendee), 20 of rescued's ($10 an attendee) — more than its turn-off's reason knew of.
      const webinar = {
        adAccountId,
        folderId: folder.id,
        startsAt: new Date('2024-03-04T20:00:00Z'),
        registrants: 40,
        recordedAt: new Date('2024-03-05T08:00:00Z'),
      };
      await seedWebinar(db, { ...webinar, campaignId: 'c1', dateId: 1, adId: 'pricey', attendees: 1 });
      await seedWebinar(db, { ...webinar, campaignId: 'c2', dateId: 2, adId: 'rescued', attendees: 20 });
      const off = (adId: string, cost: string, came: number) => ({
        ruleId,
        folderId: folder.id,
        action: 'turn_off_ad',
        adId,
        objectType: 'ad',
        reason: {
          'Cost per attendee': `${cost} > $40.00`,
          CPL: '$7.50',
          'Show-up': `${came} of 40 registrants attended`,
          Ad: `Ad ${adId}`,
        },
        createdAt: new Date('2024-03-05T06:00:30Z'),
      });
      await db.insert(ruleActivity).values([off('pricey', '$200.00', 1), off('rescued', '$100.00', 2)]);
    });
    afterAll(() => dbh.close());

    it('judges a cost-per-attendee turn-off on the show-ups known now', async () => {
      const report = await impactReport(dbh.db, { kind: 'rule', id: ruleId }, 7, NOW);
      const falsePause = Object.fromEntries(report.pauses.map((p) => [p.object_id, p.false_pause]));
      expect(falsePause).toEqual({ pricey: null, rescued: 'settled_under_threshold' });
      expect(report.totals.false_pauses).toBe(1);
    });
  });
});
