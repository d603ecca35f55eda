/**
 * A rule on what a lead became, run by the engine on each database with a fake quality source: the
 * ad whose cost per attendee is over is paused, the cheap-CPL ad nobody showed up from is judged on
 * its attendees too, and the run record names both costs. Without a source the task never acts;
 * Preview reads the same source.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { DbHandle } from '../../../server/db/client';
import { ruleRuns } from '../../../server/db/schema/index';
import { runSlot } from '../../../server/run/pipeline/runBatch';
import { expandObjects } from '../../../server/judgement/runRecord';
import { createRuleEngineService } from '../../../server/run/requestedRuns';
import type { AdQuality, QualityByAd, QualitySource } from '../../../server/outcomes/quality';
import { eachDatabase, freshDatabase } from '../../support/db';
import { activityOf, engineContext, FakePlatform, quietLog, seedAccount, seedRule } from './support';

const AT = new Date('2024-01-15T12:00:00Z');

const settled = (registrations: number, attendees: number, settledSpend: number): AdQuality => ({
  registrations,
  settledRegistrations: registrations,
  attendees,
  eventsHappened: 1,
  nextEventAt: null,
  settledSpend,
  stages: {},
});

/** What each ad's leads became, as a store would answer; records when it was asked about. */
class FakeQuality implements QualitySource {
  asked: Date[] = [];
  constructor(private readonly byAd: Record<string, AdQuality>) {}
  async qualityAt(_account: string, at: Date): Promise<QualityByAd> {
    this.asked.push(at);
    return new Map(Object.entries(this.byAd));
  }
}

eachDatabase((engine) => {
  describe(`cost per attendee on ${engine}`, () => {
    let dbh: DbHandle;
    let platform: FakePlatform;
    let adAccountId: string;
    const now = () => AT;

    beforeAll(async () => {
      dbh = await freshDatabase(engine);
    });
    afterAll(() => dbh.close());

    beforeEach(async () => {
      platform = new FakePlatform();
      ({ adAccountId } = await seedAccount(dbh.db));
      platform.addCampaign(adAccountId, 'c1', 'EDM EP-W 2024-02-01 6PM');
      // CPL $15.00, 8 of 40 attended: $75.00 per attendee ($46.66 at the best show-up chance allows).
      platform.addAd(adAccountId, 'c1', 'pricey', { spend: '600', leads: 40 });
      // CPL $5.00 (cheap), 1 of 40 attended: $200.00 per attendee.
      platform.addAd(adAccountId, 'c1', 'noshow', { spend: '200', leads: 40 });
      // CPL $15.00, 30 of 40 attended: $20.00 per attendee.
      platform.addAd(adAccountId, 'c1', 'good', { spend: '600', leads: 40 });
      // Its webinar is next week.
      platform.addAd(adAccountId, 'c1', 'upcoming', { spend: '900', leads: 30 });
    });

    const quality = () =>
      new FakeQuality({
        pricey: settled(40, 8, 600),
        noshow: settled(40, 1, 200),
        good: settled(40, 30, 600),
        upcoming: { ...settled(0, 0, 0), registrations: 30, eventsHappened: 0, nextEventAt: '2024-01-22T23:00:00Z' },
      });

    const seed = () =>
      seedRule(dbh.db, adAccountId, { tasks: { cost_per_attendee: { cost: '40', min_registrations: '20' } } });

    it('pauses the ads whose cost per attendee is over, whatever their CPL, and records both costs', async () => {
      const { rule } = await seed();
      const source = quality();
      const result = await runSlot(engineContext(dbh.db, platform, now, { quality: source }), {
        ruleId: rule.id,
        slot: AT,
        kind: 'run',
      });
      expect(result.status).toBe('done');
      expect(source.asked.length).toBeGreaterThan(0);
      expect(['pricey', 'noshow', 'good', 'upcoming'].map((id) => [id, platform.status(id)])).toEqual([
        ['pricey', 'PAUSED'],
        ['noshow', 'PAUSED'],
        ['good', 'ACTIVE'],
        ['upcoming', 'ACTIVE'],
      ]);
      const entries = await activityOf(dbh.db, rule.id);
      expect(entries.find((e) => e.adId === 'noshow')!.reason).toMatchObject({
        'Cost per attendee': '$200.00 > $40.00',
        CPL: '$5.00',
        'Show-up': '1 of 40 registrants attended',
      });

      const [run] = await dbh.db.select().from(ruleRuns).where(eq(ruleRuns.ruleId, rule.id));
      const objects = expandObjects(run!.details);
      const byId = Object.fromEntries(objects.map((o) => [o.id, o]));
      expect(byId.pricey!.crossed).toBe(
        'Cost per attendee $75.00 > $40.00 · CPL $15.00 · Show-up 8 of 40 registrants attended',
      );
      expect(byId.good!.verdicts).toEqual({ cost_per_attendee: 'under_threshold' });
      expect(byId.upcoming!.verdicts).toEqual({ cost_per_attendee: 'waiting_for_event' });
    });

    it('never acts without a quality source: every ad has no outcome data', async () => {
      const { rule } = await seed();
      await runSlot(engineContext(dbh.db, platform, now), { ruleId: rule.id, slot: AT, kind: 'run' });
      expect(platform.writes).toEqual([]);
      const [run] = await dbh.db.select().from(ruleRuns).where(eq(ruleRuns.ruleId, rule.id));
      expect(new Set(expandObjects(run!.details).map((o) => o.verdicts.cost_per_attendee))).toEqual(
        new Set(['no_outcome_data']),
      );
    });

    it('Preview lists what the run would pause, from the same quality source', async () => {
      const { rule } = await seed();
      const service = createRuleEngineService({ db: dbh.db, client: platform, now, log: quietLog, quality: quality() });
      const preview = await service.preview(rule.id);
      expect(preview.results.map((r) => [r.ad_id, r.reason.CPL])).toEqual([
        ['pricey', '$15.00'],
        ['noshow', '$5.00'],
      ]);
      expect(platform.writes).toEqual([]);
    });
  });
});
