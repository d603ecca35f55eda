/**
 * The replay hands the evaluator only the ads crossing one of the rule's tasks at an hour
 * (server/backtest/crossing.ts). That must never change a pause: no metric task may cross on a lower
 * spend where it does not cross on the whole (the lag allowance lowers the spend the lead tasks
 * read), the outcome tasks judge the whole spend whatever the lag allowance and maturity, and on any
 * history — with what the leads became changing hour by hour — the replay pauses what it pauses when
 * it judges every ad at every hour.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replay, type BacktestRule } from '../../../server/backtest/replay';
import { seededRandom } from '../../../server/adplatform/simulator/random';
import { activeAdTaskSets, activeThresholds, judgeAdTasks, viewOf } from '../../../server/judgement/evaluate';
import type { ObjectMetrics } from '../../../server/judgement/objectMetrics';
import { HOUR_MS, METRICS, type MetricName } from '../../../server/history/reading';
import { hourIndex, type AdSeries, type Timeline } from '../../../server/history/timeline';
import type { AdQuality, QualityByAd } from '../../../server/outcomes/quality';
import { isOutcomeTask, OUTCOME_STAGES, TASKS } from '../../../shared/ruleCatalog';

const START = Date.parse('2024-03-01T00:00:00Z');
const DAYS = 4;
const HOURS = DAYS * 24;

const positive = (max: number) => fc.double({ min: 0.01, max, noNaN: true });
const thresholdsFor = (key: string): fc.Arbitrary<number | string> =>
  key === 'leads' || key === 'min_registrations' || key === 'min_leads'
    ? fc.integer({ min: 1, max: 20 })
    : key === 'ctr' || key === 'rate'
      ? positive(100)
      : key === 'stage'
        ? fc.constantFrom(...OUTCOME_STAGES)
        : positive(500);

const upTo = (max: number) => fc.integer({ min: 0, max });
const someQuality: fc.Arbitrary<AdQuality> = fc
  .record({
    registrations: upTo(60),
    showUp: fc.double({ min: 0, max: 1, noNaN: true }),
    eventsHappened: upTo(2),
    settledSpend: fc.option(positive(5_000)),
    reached: upTo(30),
    judged: upTo(40),
  })
  .map((q) => ({
    registrations: q.registrations,
    settledRegistrations: q.eventsHappened ? q.registrations : 0,
    attendees: q.eventsHappened ? Math.floor(q.registrations * q.showUp) : 0,
    eventsHappened: q.eventsHappened,
    nextEventAt: null,
    settledSpend: q.settledSpend,
    stages: Object.fromEntries(OUTCOME_STAGES.map((stage) => [stage, { reached: q.reached, judged: q.judged }])),
  }));

describe('the ads a replay judges at an hour', () => {
  it('no metric task crosses on a lower spend where it does not cross on the whole; the outcome tasks judge the whole', () => {
    const adTaskSpecs = TASKS.filter((t) => t.target === 'ad');
    const rule = fc.tuple(...adTaskSpecs.map((t) => fc.tuple(...t.values.map((v) => thresholdsFor(v.key)))));
    const metrics = fc.record({
      spend: positive(5_000),
      leads: fc.integer({ min: 0, max: 50 }),
      websiteLeads: fc.integer({ min: 0, max: 50 }),
      linkClicks: fc.integer({ min: 0, max: 500 }),
      clicks: fc.option(fc.integer({ min: 0, max: 1_000 })),
      impressions: fc.option(fc.integer({ min: 0, max: 100_000 })),
      ctr: fc.option(positive(100)),
      cpc: fc.option(positive(50)),
    });
    fc.assert(
      fc.property(
        rule,
        metrics,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.option(someQuality, { nil: undefined }),
        fc.boolean(),
        (values, m: ObjectMetrics, share, quality, tooEarly) => {
          const allTasks = {
            id: 1,
            name: 'All tasks',
            rule_filter: [],
            rule_task: adTaskSpecs.map((t, i) => ({
              name: t.name,
              is_active: true,
              values: Object.fromEntries(t.values.map((v, k) => [v.key, String(values[i]![k])])),
            })),
          };
          const thresholds = activeThresholds(allTasks, []);
          const tasks = activeAdTaskSets(thresholds);
          expect([...tasks.metric, ...tasks.outcome].map(([task]) => task)).toEqual(adTaskSpecs.map((t) => t.name));
          for (const [task, check] of tasks.metric) {
            const lower = check({ ...m, spend: m.spend * share }, thresholds.get(task)!, 'USD');
            if (lower) expect(check(m, thresholds.get(task)!, 'USD'), task).not.toBeNull();
          }
          // With a lag allowance leaving part of the spend out, and whatever the maturity, the evaluator's
          // outcome verdicts are the checks on the whole numbers — what crossing.ts asks.
          const view = viewOf(
            allTasks,
            { currency: 'USD', campaigns: [], ads: [], insights: [] },
            { now: new Date(0) },
          );
          const facts = {
            hoursDelivered: 1,
            olderThanHourly: false,
            recentSpend: m.spend * share,
            lastTurnedOnAt: null,
          };
          const judged = judgeAdTasks(
            { metric: [], outcome: tasks.outcome },
            thresholds,
            { metrics: m, facts, quality, tooEarly },
            view,
            'USD',
          );
          for (const [task, check] of tasks.outcome)
            expect(judged.verdicts[task], task).toBe(check(m, quality, thresholds.get(task)!, 'USD').verdict);
        },
      ),
      { numRuns: 3_000 },
    );
  });

  it('pauses, holds and revives the same as judging every ad at every hour, whatever the history and settings', async () => {
    const settings = fc.record({
      seed: fc.integer({ min: 1, max: 2 ** 30 }),
      tasks: fc.subarray(
        [
          { name: 'trigger_cpl', values: { cpl: '30' } },
          { name: 'spend_cpl_no_leads', values: { spend: '25' } },
          { name: 'website_cpl', values: { cpl: '45' } },
          { name: 'spend_no_links_clicks', values: { spend: '15' } },
          { name: 'spend_ctr_no_leads', values: { spend: '20', ctr: '1.5' } },
          { name: 'spend_cpc_no_leads', values: { spend: '20', cpc: '0.8' } },
          { name: 'cost_per_attendee', values: { cost: '40', min_registrations: '5' } },
          { name: 'show_up_rate', values: { rate: '35', min_registrations: '5' } },
          { name: 'cost_per_stage', values: { stage: 'qualified', cost: '60', min_leads: '3' } },
        ],
        { minLength: 1 },
      ),
      maturity_hours: fc.constantFrom(0, 6, 24),
      maturity_impressions: fc.constantFrom(0, 800),
      lag_hours: fc.constantFrom(null, 3, 12),
      revive_hours: fc.constantFrom(null, 24),
      cooldown_hours: fc.constantFrom(0, 12),
      maxShare: fc.constantFrom(0.3, 1),
      maxActions: fc.constantFrom(2, 100),
      hoursOn: fc.constantFrom(24, 6),
    });
    let outcomePauses = 0;
    await fc.assert(
      fc.asyncProperty(settings, async (s) => {
        const random = seededRandom(s.seed).next;
        const timeline = historyOf(random);
        const qualityByHour = qualityHistoryOf(random, timeline);
        const rule: BacktestRule = {
          id: 1,
          name: 'Screened',
          rule_filter: [
            { name: 'campaign_name_contains', values: ['EDM'], is_active: true },
            { name: 'campaign_name_not_contains', values: ['skip'], is_active: true },
          ],
          rule_task: s.tasks.map((t) => ({ ...t, is_active: true })),
          schedule: Array.from({ length: 7 }, () => Array.from({ length: 24 }, (_, h) => h % (24 / s.hoursOn) === 0)),
          timezone: 'Europe/Berlin',
          judging: { ...s, attribution_window: null, carried_over: false },
        };
        const pick = (n: number) => timeline.ads.filter(() => random() < n).map((a) => a.adId);
        const input = {
          rule,
          timeline,
          currency: 'USD',
          accountZone: 'America/New_York',
          fromMs: START + 24 * HOUR_MS,
          toMs: START + HOURS * HOUR_MS,
          exemptions: pick(0.15).map((objectId) => ({
            objectId,
            sinceMs: START + Math.floor(random() * HOURS) * HOUR_MS,
          })),
          turnOns: pick(0.2)
            .map((objectId) => ({ objectId, atMs: START + Math.floor(random() * HOURS) * HOUR_MS }))
            .sort((a, b) => a.atMs - b.atMs),
          limits: { maxShare: s.maxShare, maxActions: s.maxActions },
          qualityAt: (atMs: number) => qualityByHour[hourIndex(timeline, atMs)] ?? new Map(),
        };
        const screened = await replay(input);
        const everyAd = await replay({ ...input, judgeEveryAd: true });
        expect(screened).toEqual(everyAd);
        outcomePauses += screened.pauses.filter((p) => isOutcomeTask(p.task)).length;
      }),
      { numRuns: 60 },
    );
    expect(outcomePauses).toBeGreaterThan(0);
  });
});

/**
 * Four days of 14 ads in 5 campaigns (one outside the rule's filters, one excluded by name), read
 * at most hours: spend at varied rates, some ads with leads (some of them late), ads and campaigns
 * switched off now and then.
 */
function historyOf(random: () => number): Timeline {
  const campaigns = ['EDM one', 'EDM two', 'EDM three', 'Brand', 'EDM skip'];
  const ads: AdSeries[] = [];
  for (let i = 0; i < 14; i += 1) {
    const campaign = i % campaigns.length;
    const values = Object.fromEntries(METRICS.map((m) => [m, new Float64Array(HOURS).fill(Number.NaN)])) as Record<
      MetricName,
      Float64Array
    >;
    const series: AdSeries = {
      adId: `ad${i}`,
      adName: `Ad ${i}`,
      campaignId: `c${campaign}`,
      campaignName: campaigns[campaign]!,
      budgetCents: 20_000,
      // Instant-form ads get no lag allowance (unless they have had a website lead): some of each.
      optimizationGoal: ['LEAD_GENERATION', 'OFFSITE_CONVERSIONS', null][i % 3]!,
      latest: new Int32Array(HOURS).fill(-1),
      values,
      read: new Uint8Array(HOURS),
      settled: new Uint8Array(HOURS),
      on: new Uint8Array(HOURS),
      campaignOn: new Uint8Array(HOURS),
    };
    const rate = 50 + random() * 600;
    const leadEvery = random() < 0.3 ? Number.POSITIVE_INFINITY : 1_000 + random() * 6_000;
    const starts = Math.floor(random() * 30);
    const totals = { spendCents: 0, impressions: 0, clicks: 0, linkClicks: 0, leads: 0, websiteLeads: 0 };
    let last = -1;
    for (let h = 0; h < HOURS; h += 1) {
      const on = random() > 0.05;
      if (h >= starts && on) {
        const spent = Math.round(rate * (0.5 + random()));
        totals.spendCents += spent;
        totals.impressions += Math.round(spent * (0.5 + random()));
        totals.clicks += Math.round(spent / 60);
        totals.linkClicks += random() < 0.5 ? Math.round(spent / 120) : 0;
        totals.leads = Math.floor(totals.spendCents / leadEvery);
        totals.websiteLeads = Math.floor(totals.leads / 2);
      }
      if (random() < 0.8) {
        series.read[h] = 1;
        series.settled[h] = random() < 0.2 ? 1 : 0;
        series.on[h] = on ? 1 : 0;
        series.campaignOn[h] = random() < 0.97 ? 1 : 0;
        for (const m of METRICS) values[m][h] = random() < 0.03 ? Number.NaN : totals[m];
        last = h;
      }
      series.latest[h] = last;
    }
    ads.push(series);
  }
  return { adAccountId: 'act_1', startMs: START, hours: HOURS, ads };
}

/**
 * What the leads of most ads became, hour by hour: known from some hour on, an event later, its
 * show-ups arriving over the twelve hours after (so revive sees attendees arrive), leads judged at a
 * CRM stage as they age.
 */
function qualityHistoryOf(random: () => number, timeline: Timeline): QualityByAd[] {
  const ads = timeline.ads
    .filter(() => random() < 0.8)
    .map((s) => {
      const knownFrom = Math.floor((random() * HOURS) / 2);
      return {
        adId: s.adId,
        knownFrom,
        eventAt: knownFrom + Math.floor((random() * HOURS) / 2),
        registrations: Math.floor(random() * 40),
        showUp: random(),
        settledSpend: random() < 0.5 ? null : 100 + random() * 2_000,
        reachedShare: random(),
      };
    });
  return Array.from({ length: HOURS }, (_, h) => {
    const byAd: QualityByAd = new Map();
    for (const a of ads) {
      if (h < a.knownFrom) continue;
      const happened = h >= a.eventAt;
      const settled = happened ? a.registrations : 0;
      const arrived = happened ? Math.min(1, (h - a.eventAt + 1) / 12) : 0;
      const judged = Math.floor((h - a.knownFrom) / 4);
      byAd.set(a.adId, {
        registrations: a.registrations,
        settledRegistrations: settled,
        attendees: Math.floor(settled * a.showUp * arrived),
        eventsHappened: happened ? 1 : 0,
        nextEventAt: happened ? null : new Date(START + a.eventAt * HOUR_MS).toISOString(),
        settledSpend: happened ? a.settledSpend : null,
        stages: { qualified: { reached: Math.floor(judged * a.reachedShare), judged } },
      });
    }
    return byAd;
  });
}
