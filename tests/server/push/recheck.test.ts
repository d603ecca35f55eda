/**
 * When a rule under push is to look again without a notification (server/push/recheck.ts): an ad
 * over the line but too early to judge is looked at again when it matures, or at every scheduled
 * hour when its maturity cannot be timed; an ad under the line waits for a crossing.
 */
import { describe, expect, it } from 'vitest';
import type { Ad, Campaign, InsightRow } from '../../../server/adplatform/types';
import { evaluate, type AccountSnapshot } from '../../../server/judgement/evaluate';
import type { HourlyRow, ObjectHistory } from '../../../server/judgement/lateData';
import type { EngineRule } from '../../../server/judgement/ruleShape';
import { recheckOf } from '../../../server/push/recheck';
import { NEW_RULE_JUDGING, type RuleJudging } from '../../../shared/judging';

const NOW = new Date('2026-03-10T12:00:00Z');
const HOUR = 3_600_000;
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * HOUR);
const CAMPAIGN: Campaign = { id: 'c1', name: 'EDM EP-W', status: 'ACTIVE', effective_status: 'ACTIVE' };
const AD: Ad = {
  id: 'a1',
  name: 'Ad',
  status: 'ACTIVE',
  effective_status: 'ACTIVE',
  campaign_id: 'c1',
  adset_id: 's1',
};

const row = (spend: number, impressions: number): InsightRow => ({
  campaign_id: 'c1',
  campaign_name: CAMPAIGN.name,
  ad_id: 'a1',
  ad_name: 'Ad',
  spend: spend.toFixed(2),
  impressions: String(impressions),
  clicks: '40',
  inline_link_clicks: '30',
});
const hourly = (hours: number): HourlyRow[] =>
  Array.from({ length: hours }, (_, i) => ({
    ad_id: 'a1',
    hour: hoursAgo(hours - i).toISOString(),
    spend: 5,
    impressions: 200,
  }));
const snapshot = (insight: InsightRow, hours: number): AccountSnapshot => ({
  currency: 'USD',
  campaigns: [CAMPAIGN],
  ads: [AD],
  insights: [insight],
  hourly: hourly(hours),
  hourlySince: hoursAgo(72).toISOString(),
  readAt: NOW.toISOString(),
});
const rule = (judging: Partial<RuleJudging> = {}): EngineRule => ({
  id: 1,
  name: 'Rule',
  rule_filter: [{ name: 'campaign_name_contains', values: ['EDM'], is_active: true }],
  rule_task: [{ name: 'spend_cpl_no_leads', values: { spend: '40' }, is_active: true }],
  judging: { ...NEW_RULE_JUDGING, ...judging },
});
const recheck = (r: EngineRule, s: AccountSnapshot, history?: Map<string, ObjectHistory>) =>
  recheckOf(r, s, evaluate(r, s, { history, now: NOW }), { history, now: NOW });

describe('when a rule under push looks again', () => {
  it('at the moment an ad over the line matures', () => {
    expect(recheck(rule(), snapshot(row(50, 2000), 10))).toEqual({
      dueAt: new Date(NOW.getTime() + 14 * HOUR),
      hourlyBecause: null,
    });
  });

  it('at every scheduled hour while the ad over the line has too few impressions', () => {
    expect(recheck(rule(), snapshot(row(50, 600), 10))).toMatchObject({
      dueAt: null,
      hourlyBecause: expect.stringMatching(/impressions/),
    });
  });

  it('when the cool-down of an ad over the line ends', () => {
    const history = new Map([['a1', { lastTurnedOnAt: hoursAgo(2) }]]);
    expect(recheck(rule(), snapshot(row(50, 5000), 40), history)).toEqual({
      dueAt: new Date(hoursAgo(2).getTime() + 24 * HOUR),
      hourlyBecause: null,
    });
  });

  it('never for an ad under the line, nor for one the rule can judge now', () => {
    expect(recheck(rule(), snapshot(row(20, 2000), 10))).toBeNull();
    expect(recheck(rule(), snapshot(row(50, 2000), 30))).toBeNull();
  });
});
