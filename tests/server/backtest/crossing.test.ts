/**
 * The replay hands the evaluator only the ads crossing one of the rule's tasks at an hour
 * (server/backtest/crossing.ts). That must never change a pause: no task may cross on a lower spend
 * where it does not cross on the whole (the lag allowance lowers the spend the lead tasks read), and
 * on any history the replay pauses what it pauses when it judges every ad at every hour.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replay, type BacktestRule } from '../../../server/backtest/replay';
import { seededRandom } from '../../../server/adplatform/simulator/random';
import { activeAdTasks, activeThresholds } from '../../../server/engine/evaluate';
import type { ObjectMetrics } from '../../../server/engine/objectMetrics';
import { HOUR_MS, METRICS, type MetricName } from '../../../server/history/reading';
import type { AdSeries, Timeline } from '../../../server/history/timeline';
import { isOutcomeTask, TASKS } from '../../../src/domain/ruleCatalog';

const START = Date.parse('2024-03-01T00:00:00Z');
const DAYS = 4;
const HOURS = DAYS * 24;

const positive = (max: number) => fc.double({ min: 0.01, max, noNaN: true });
const thresholdsFor = (key: string) =>
  key === 'leads' ? fc.integer({ min: 1, max: 20 }) : key === 'ctr' ? positive(100) : positive(500);

describe('the ads a replay judges at an hour', () => {
  it('no task crosses on a lower spend where it does not cross on the whole spend', () => {
    // The outcome tasks read what leads became, not these numbers: a replay has no outcome to cross.
    const adTaskSpecs = TASKS.filter((t) => t.target === 'ad' && !isOutcomeTask(t.name));
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
      fc.property(rule, metrics, fc.double({ min: 0, max: 1, noNaN: true }), (values, m: ObjectMetrics, share) => {
        const thresholds = activeThresholds(
          {
            id: 1,
            name: 'All tasks',
            rule_filter: [],
            rule_task: adTaskSpecs.map((t, i) => ({
              name: t.name,
              is_active: true,
              values: Object.fromEntries(t.values.map((v, k) => [v.key, String(values[i]![k])])),
            })),
          },
          [],
        );
        const checks = activeAdTasks(thresholds);
        expect(checks.map(([task]) => task)).toEqual(adTaskSpecs.map((t) => t.name));
        for (const [task, check] of checks) {
          const lower = check({ ...m, spend: m.spend * share }, thresholds.get(task)!, 'USD');
          if (lower) expect(check(m, thresholds.get(task)!, 'USD'), task).not.toBeNull();
        }
      }),
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
    await fc.assert(
      fc.asyncProperty(settings, async (s) => {
        const random = seededRandom(s.seed).next;
        const timeline = historyOf(random);
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
          judging: { ...s, carried_over: false },
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
        };
        const screened = await replay(input);
        const everyAd = await replay({ ...input, judgeEveryAd: true });
        expect(screened).toEqual(everyAd);
      }),
      { numRuns: 60 },
    );
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
