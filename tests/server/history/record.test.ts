import { beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { DbHandle } from '../../../server/db/client';
import { adHistoryNames, adMetricHistory } from '../../../server/db/schema/index';
import { runSlot } from '../../../server/run/pipeline/runBatch';
import { createSnapshotStore } from '../../../server/run/accountSnapshots';
import { recordReading } from '../../../server/history/record';
import { historyCoverage, pruneHistory, writeSettledDays } from '../../../server/history/store';
import { hourIndex, loadTimeline, numbersAt } from '../../../server/history/timeline';
import { eachDatabase } from '../../support/db';
import { accountOnPlatform, engineContext, type FakePlatform, type seedAccount, seedRule } from '../run/support';

const nullDay = () => new Array<number | null>(24).fill(null);

eachDatabase((engine) => {
  describe(`metric history on ${engine}`, () => {
    let dbh: DbHandle;
    let platform: FakePlatform;
    let account: Awaited<ReturnType<typeof seedAccount>>;
    const world = accountOnPlatform(engine);

    beforeEach(() => {
      ({ dbh, platform, account } = world);
      platform.addAd(account.adAccountId, 'c1', 'a1', {
        spend: '186.30',
        leads: 3,
        clicks: '40',
        inline_link_clicks: '30',
        optimization_goal: 'LEAD_GENERATION',
      });
      platform.addAd(account.adAccountId, 'c1', 'a2', { spend: '12.05' }, 'PAUSED');
    });

    const rowsOf = (adAccountId: string) =>
      dbh.db
        .select()
        .from(adMetricHistory)
        .where(eq(adMetricHistory.adAccountId, adAccountId))
        .orderBy(adMetricHistory.adId);

    it('keeps what an engine run read, paused ads too, in the UTC hour of the read', async () => {
      const readAt = new Date('2024-01-15T12:00:40Z');
      const { rule } = await seedRule(dbh.db, account.adAccountId, { everyDayAt: [12] });
      await runSlot(
        engineContext(dbh.db, platform, () => readAt, {
          snapshots: createSnapshotStore(dbh.db, { client: platform, now: () => readAt, pollMs: 20 }),
        }),
        { ruleId: rule.id, slot: new Date('2024-01-15T12:00:00Z'), kind: 'run' },
      );

      const rows = await rowsOf(account.adAccountId);
      expect(rows.map((r) => [r.adId, r.day, r.readMask, r.onMask, r.settledMask])).toEqual([
        ['a1', '2024-01-15', 1 << 12, 1 << 12, 0],
        ['a2', '2024-01-15', 1 << 12, 0, 0],
      ]);
      expect(rows[0]!.spendCents![12]).toBe(18630);
      expect(rows[0]!.leads![12]).toBe(3);
      expect(rows[0]!.clicks![12]).toBe(40);
      expect(rows[0]!.linkClicks![12]).toBe(30);
      expect(rows[0]!.spendCents!.filter((v) => v !== null)).toEqual([18630]);
      const [name] = await dbh.db.select().from(adHistoryNames).where(eq(adHistoryNames.adId, 'a1'));
      expect(name).toMatchObject({
        adName: 'Ad a1',
        campaignName: 'EDM EP-W 2024-02-01 6PM',
        optimizationGoal: 'LEAD_GENERATION',
      });
      // A later read that does not report the goal keeps the one known.
      await recordReading(dbh.db, {
        adAccountId: account.adAccountId,
        readAt: new Date('2024-01-15T13:00:40Z'),
        campaigns: [],
        ads: [],
        insights: [{ campaign_id: 'c1', campaign_name: 'EDM', ad_id: 'a1', spend: '190.00', impressions: '1100' }],
      });
      const [later] = await dbh.db.select().from(adHistoryNames).where(eq(adHistoryNames.adId, 'a1'));
      expect(later).toMatchObject({ campaignName: 'EDM', optimizationGoal: 'LEAD_GENERATION' });
    });

    it('keeps at most one reading per ad and hour: the first; the next hour gets its own', async () => {
      const read = (at: string) =>
        recordReading(dbh.db, {
          adAccountId: account.adAccountId,
          readAt: new Date(at),
          campaigns: [{ id: 'c1', name: 'EDM', status: 'ACTIVE', effective_status: 'ACTIVE' }],
          ads: [],
          insights: [
            {
              campaign_id: 'c1',
              campaign_name: 'EDM',
              ad_id: 'a1',
              spend: String(at.slice(14, 16)),
              impressions: '10',
            },
          ],
        });
      await read('2024-01-15T07:05:00Z');
      await read('2024-01-15T07:40:00Z');
      await read('2024-01-15T08:01:00Z');
      const [row] = await rowsOf(account.adAccountId);
      expect(row!.spendCents![7]).toBe(500);
      expect(row!.spendCents![8]).toBe(100);
      expect(row!.readMask).toBe((1 << 7) | (1 << 8));
      expect(row!.campaignOnMask).toBe((1 << 7) | (1 << 8));
    });

    it('tells settled numbers from numbers as known then, and a live reading replaces a settled one', async () => {
      const values = {
        spendCents: nullDay(),
        impressions: nullDay(),
        clicks: nullDay(),
        linkClicks: nullDay(),
        leads: nullDay(),
        websiteLeads: nullDay(),
      };
      values.spendCents[9] = 900;
      values.spendCents[10] = 1000;
      values.leads[9] = 2;
      values.leads[10] = 2;
      await writeSettledDays(dbh.db, account.adAccountId, [
        {
          day: '2024-01-16',
          adId: 'a1',
          campaignId: 'c1',
          values,
          readMask: (1 << 9) | (1 << 10),
          onMask: 1 << 9,
          campaignOnMask: 1 << 9,
        },
      ]);
      // Hour 10 was read live (0 leads known then): that stays; hour 9 stays settled.
      await recordReading(dbh.db, {
        adAccountId: account.adAccountId,
        readAt: new Date('2024-01-16T10:00:30Z'),
        campaigns: [],
        ads: [],
        insights: [{ campaign_id: 'c1', campaign_name: 'EDM', ad_id: 'a1', spend: '9.50', impressions: '100' }],
      });
      await writeSettledDays(dbh.db, account.adAccountId, [
        {
          day: '2024-01-16',
          adId: 'a1',
          campaignId: 'c1',
          values,
          readMask: (1 << 9) | (1 << 10),
          onMask: 0,
          campaignOnMask: 0,
        },
      ]);
      const timeline = await loadTimeline(
        dbh.db,
        account.adAccountId,
        Date.parse('2024-01-16T00:00:00Z'),
        Date.parse('2024-01-16T23:00:00Z'),
        0,
      );
      const [series] = timeline.ads;
      const nine = hourIndex(timeline, Date.parse('2024-01-16T09:00:00Z'));
      expect(series!.settled[nine]).toBe(1);
      expect(numbersAt(series!, nine)).toMatchObject({ spendCents: 900, leads: 2 });
      expect(series!.settled[nine + 1]).toBe(0);
      expect(numbersAt(series!, nine + 1)).toMatchObject({ spendCents: 950, leads: 0 });
      // Later hours read the latest reading at or before them.
      expect(series!.latest[nine + 5]).toBe(nine + 1);
      expect(series!.latest[nine - 1]).toBe(-1);
      expect(await historyCoverage(dbh.db, account.adAccountId)).toEqual({
        days: 1,
        ads: 1,
        first: '2024-01-16',
        last: '2024-01-16',
        readings: 2,
        settledReadings: 1,
      });
    });

    it('prunes days older than the history keeps', async () => {
      const read = (at: string) =>
        recordReading(dbh.db, {
          adAccountId: account.adAccountId,
          readAt: new Date(at),
          campaigns: [],
          ads: [],
          insights: [{ campaign_id: 'c1', campaign_name: 'EDM', ad_id: 'a1', spend: '1', impressions: '1' }],
        });
      await read('2024-01-01T07:00:00Z');
      await read('2024-02-05T07:00:00Z');
      await pruneHistory(dbh.db, new Date('2024-01-02T07:00:00Z'));
      expect((await rowsOf(account.adAccountId)).map((r) => r.day)).toEqual(['2024-02-05']);
    });
  });
});
