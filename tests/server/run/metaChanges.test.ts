/**
 * A run under Meta's 2026 platform: a rule stored on an attribution window Meta removed fails with a
 * note saying so; a rule's leads are counted in the window it chose; an empty hourly breakdown for
 * days the account delivered holds the run instead of reading as no spend; an object Meta paused
 * itself shows in Activity as paused by Meta, once per pause.
 */
import { and, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import type { InsightRow, InsightsQuery } from '../../../server/adplatform/types';
import type { DbHandle } from '../../../server/db/client';
import { ruleActivity, ruleRuns } from '../../../server/db/schema/index';
import { recordRunFailure } from '../../../server/run/pipeline/record';
import { runSlot } from '../../../server/run/pipeline/runBatch';
import { eachDatabase } from '../../support/db';
import { accountOnPlatform, engineContext, FakePlatform, type seedAccount, seedRule } from './support';

const SLOT = new Date('2026-11-29T12:00:00Z');
const LATER = new Date('2026-11-29T13:00:00Z');

/** The fake platform, answering the hourly breakdown with rows or (as Graph may) none, and the account's total. */
class HourlyPlatform extends FakePlatform {
  hourlyRows: InsightRow[] = [];
  accountImpressions = '5000';
  queries: InsightsQuery[] = [];

  override async getInsights(accountId: string, query?: InsightsQuery) {
    this.queries.push(query!);
    if (query?.breakdown === 'hourly') return this.hourlyRows;
    if (query?.level === 'account')
      return [{ campaign_id: '', campaign_name: '', spend: '0', impressions: this.accountImpressions }];
    return super.getInsights(accountId);
  }
}

eachDatabase((engine) => {
  describe(`Meta's 2026 changes in a run on ${engine}`, () => {
    let dbh: DbHandle;
    let platform: HourlyPlatform;
    let account: Awaited<ReturnType<typeof seedAccount>>;
    const world = accountOnPlatform(engine);
    const at = (instant: Date) => engineContext(dbh.db, platform, () => instant);
    // Ids of this test's account: the database outlives each test, and an ad turned off in one stays so.
    let dear: string;

    beforeEach(() => {
      ({ dbh, account } = world);
      dear = `dear-${account.adAccountId}`;
      platform = Object.assign(new HourlyPlatform(), { campaigns: world.platform.campaigns });
      platform.addAd(account.adAccountId, 'c1', dear, {
        spend: '300',
        impressions: '5000',
        // Meta's default window credits 5 leads ($60 each), 1-day click only 2 ($150 each).
        actions: [{ action_type: 'lead', value: '5', '1d_click': '2', '7d_click': '4' }],
      });
    });

    it('fails a run of a rule stored on a removed attribution window, saying why, without reading the platform', async () => {
      const { rule } = await seedRule(dbh.db, account.adAccountId, {
        everyDayAt: [12],
        tasks: { trigger_cpl: { cpl: '100' } },
        judging: { attribution_window: '7d_view' },
      });
      const run = { ruleId: rule.id, slot: SLOT, kind: 'run' as const };
      const failure = await runSlot(at(SLOT), run).catch((error: unknown) => error as Error);
      expect(failure).toBeInstanceOf(Error);
      expect((failure as Error).message).toBe(
        'The rule cannot count its leads. Meta no longer reports 7-day view attribution (since 12 January 2026): choose 1-day click, 7-day click, 1-day view or Meta’s default in its judging settings',
      );
      expect(platform.calls.getInsights).toBe(0);
      // The last attempt leaves the error in Activity and on the run.
      const entry = await recordRunFailure(at(SLOT), run, failure);
      expect(entry).toMatchObject({ action: 'error', ruleId: rule.id });
      expect(entry.reason.Error).toContain('Meta no longer reports 7-day view attribution');
      const [stored] = await dbh.db.select().from(ruleRuns).where(eq(ruleRuns.ruleId, rule.id));
      expect(stored).toMatchObject({ status: 'failed', error: (failure as Error).message });
      expect(platform.writes).toEqual([]);
    });

    it('counts a rule’s leads in the window it chose, asking Graph for that window in the same read', async () => {
      const cpl = { trigger_cpl: { cpl: '100' } };
      const { rule: byDefault } = await seedRule(dbh.db, account.adAccountId, { everyDayAt: [12], tasks: cpl });
      expect((await runSlot(at(SLOT), { ruleId: byDefault.id, slot: SLOT, kind: 'run' })).turnedOff).toEqual([]);
      const { rule: byClick } = await seedRule(dbh.db, account.adAccountId, {
        everyDayAt: [13],
        tasks: cpl,
        judging: { attribution_window: '1d_click' },
      });
      const result = await runSlot(at(LATER), { ruleId: byClick.id, slot: LATER, kind: 'run' });
      expect(result.turnedOff.map((e) => e.adId)).toEqual([dear]);
      expect(Object.values(result.turnedOff[0]!.reason).join(' ')).toContain('$150.00');
      expect(platform.queries.filter((q) => q.level === 'ad').map((q) => q.attributionWindows)).toEqual([
        undefined,
        ['1d_click'],
      ]);
    });

    it('holds a run whose hourly breakdown came back empty for days the account delivered, and judges once rows come', async () => {
      const { rule } = await seedRule(dbh.db, account.adAccountId, {
        everyDayAt: [12, 13],
        tasks: { spend_cpl_no_leads: { spend: '50' }, trigger_cpl: { cpl: '50' } },
        judging: { lag_hours: 6 },
      });
      const held = await runSlot(at(SLOT), { ruleId: rule.id, slot: SLOT, kind: 'run' });
      expect(held.status).toBe('unhealthy');
      expect(held.note).toMatch(
        /^held: Meta returned no rows for the hourly breakdown of \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d, though the account had 5,000 impressions then/,
      );
      expect(platform.writes).toEqual([]);
      const [run] = await dbh.db.select().from(ruleRuns).where(eq(ruleRuns.id, held.runId!));
      expect(run).toMatchObject({ status: 'done', outcome: 'unhealthy' });
      expect(run!.details).toMatchObject({
        problems: [expect.stringMatching(/^hourly breakdown: Meta returned no rows/)],
      });

      // An account that did not deliver those days answers no rows honestly: the run judges.
      platform.accountImpressions = '0';
      const judged = await runSlot(at(LATER), { ruleId: rule.id, slot: LATER, kind: 'run' });
      expect(judged.status).toBe('done');
      expect(judged.turnedOff.map((e) => e.adId)).toEqual([dear]);
    });

    it('shows an object Meta paused itself in Activity as paused by Meta, once per pause, with no rule', async () => {
      platform.addCampaign(account.adAccountId, 'asc', 'EDM Advantage+ shopping', 'PAUSED');
      platform.campaigns.get('asc')!.issues_info = [
        { error_summary: 'Paused by Meta: Advantage+ shopping and app campaigns can no longer run', level: 'CAMPAIGN' },
      ];
      platform.addAd(account.adAccountId, 'asc', 'asc-ad', { spend: '10' });
      const { rule, folder } = await seedRule(dbh.db, account.adAccountId, {
        everyDayAt: [12, 13, 14, 15],
        tasks: { trigger_cpl: { cpl: '100' } },
      });
      const pausedByMeta = () =>
        dbh.db
          .select()
          .from(ruleActivity)
          .where(and(eq(ruleActivity.action, 'paused_by_meta'), eq(ruleActivity.adId, 'asc')));
      await Promise.all([
        runSlot(at(SLOT), { ruleId: rule.id, slot: SLOT, kind: 'run' }),
        runSlot(at(SLOT), { ruleId: rule.id, slot: SLOT, kind: 'manual', actorName: 'Ada' }),
      ]);
      await runSlot(at(LATER), { ruleId: rule.id, slot: LATER, kind: 'run' });
      const entries = await pausedByMeta();
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        ruleId: null,
        folderId: folder.id,
        objectType: 'campaign',
        reason: {
          'Paused by': 'Meta, not a rule',
          Why: 'Paused by Meta: Advantage+ shopping and app campaigns can no longer run',
        },
      });
      expect(platform.writes).toEqual([]);

      // Turned back on by hand, then paused by Meta again: a second pause, a second entry.
      const hour = (h: number) => new Date(`2026-11-29T${h}:00:00Z`);
      const asc = platform.campaigns.get('asc')!;
      Object.assign(asc, { status: 'ACTIVE', effective_status: 'ACTIVE', issues_info: undefined });
      await runSlot(at(hour(14)), { ruleId: rule.id, slot: hour(14), kind: 'run' });
      Object.assign(asc, {
        status: 'PAUSED',
        effective_status: 'PAUSED',
        issues_info: [{ error_summary: 'Paused by Meta: it does not follow the Advertising Standards' }],
      });
      await runSlot(at(hour(15)), { ruleId: rule.id, slot: hour(15), kind: 'run' });
      expect((await pausedByMeta()).map((e) => e.reason.Why)).toEqual([
        'Paused by Meta: Advantage+ shopping and app campaigns can no longer run',
        'Paused by Meta: it does not follow the Advertising Standards',
      ]);
    });
  });
});
