import { describe, expect, it } from 'vitest';
import type { Ad, Campaign, InsightRow } from '../../../server/adplatform/types';
import { folderConflicts } from '../../../server/judgement/conflicts';
import { evaluate, type AccountSnapshot } from '../../../server/judgement/evaluate';
import { reviveDecisions } from '../../../server/judgement/revive';
import type { HourlyRow, ObjectHistory } from '../../../server/judgement/lateData';
import type { EngineRule, RuleItem } from '../../../server/judgement/ruleShape';
import { CARRIED_OVER_JUDGING, NEW_RULE_JUDGING, type RuleJudging } from '../../../shared/judging';

const NOW = new Date('2026-03-10T12:00:00Z');
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000);

const CAMPAIGN: Campaign = { id: 'c1', name: 'EDM EP-W 2026-03-12', status: 'ACTIVE', effective_status: 'ACTIVE' };
const AD: Ad = {
  id: 'a1',
  name: 'Ad one',
  status: 'ACTIVE',
  effective_status: 'ACTIVE',
  campaign_id: 'c1',
  adset_id: 's1',
};

function row(spend: number, leads: number, impressions: number): InsightRow {
  return {
    campaign_id: 'c1',
    campaign_name: CAMPAIGN.name,
    ad_id: 'a1',
    ad_name: 'Ad one',
    spend: spend.toFixed(2),
    impressions: String(impressions),
    clicks: '40',
    inline_link_clicks: '30',
    ...(leads ? { actions: [{ action_type: 'lead', value: String(leads) }] } : {}),
  };
}

/** `hours` delivering hours ending now, each spending `perHour` with `impressions` impressions. */
function hourly(hours: number, perHour: number, impressions = 100): HourlyRow[] {
  return Array.from({ length: hours }, (_, i) => ({
    ad_id: 'a1',
    hour: hoursAgo(hours - i).toISOString(),
    spend: perHour,
    impressions,
  }));
}

const task = (name: string, values: unknown): RuleItem => ({ name, values, is_active: true });

function rule(judging: Partial<RuleJudging>, tasks: RuleItem[]): EngineRule {
  return {
    id: 1,
    name: 'Rule',
    rule_filter: [{ name: 'campaign_name_contains', values: ['EDM'], is_active: true }],
    rule_task: tasks,
    judging: { ...NEW_RULE_JUDGING, ...judging },
  };
}

const snapshot = (insight: InsightRow, hourlyRows?: HourlyRow[], since = hoursAgo(72)): AccountSnapshot => ({
  currency: 'USD',
  campaigns: [CAMPAIGN],
  ads: [AD],
  insights: [insight],
  ...(hourlyRows ? { hourly: hourlyRows, hourlySince: since.toISOString() } : {}),
  readAt: NOW.toISOString(),
});

const NO_LEADS = task('spend_cpl_no_leads', { spend: '40' });
const CPL = task('trigger_cpl', { cpl: '20' });

interface Case {
  name: string;
  judging: Partial<RuleJudging>;
  tasks: RuleItem[];
  insight: InsightRow;
  hourly?: HourlyRow[];
  history?: ObjectHistory;
  verdict: string;
}

const CASES: Case[] = [
  // Too early: hours delivered and impressions.
  {
    name: 'spent $60 in its first 6 hours with no leads: too early (24 h)',
    judging: {},
    tasks: [NO_LEADS],
    insight: row(60, 0, 1200),
    hourly: hourly(6, 10, 200),
    verdict: 'too_early',
  },
  {
    name: 'the same ad after 30 hours: judged, turned off',
    judging: {},
    tasks: [NO_LEADS],
    insight: row(60, 0, 3000),
    hourly: hourly(30, 2),
    verdict: 'acted',
  },
  {
    name: 'old enough but under 1,000 impressions: too early',
    judging: {},
    tasks: [NO_LEADS],
    insight: row(60, 0, 900),
    verdict: 'too_early',
  },
  {
    name: 'older than the hourly rows reach (lifetime impressions beyond them): judged',
    judging: {},
    tasks: [NO_LEADS],
    insight: row(200, 0, 50_000),
    hourly: hourly(5, 10),
    verdict: 'acted',
  },
  {
    name: 'carried-over rule: judged from the first hour, as before',
    judging: CARRIED_OVER_JUDGING,
    tasks: [NO_LEADS],
    insight: row(60, 0, 300),
    hourly: hourly(3, 20),
    verdict: 'acted',
  },
  // Lag allowance: only spend older than L hours is held against the ad.
  {
    name: 'no leads, $60 spent but $30 of it in the last 12 h: lag allowance',
    judging: { maturity_hours: 0, maturity_impressions: 0, lag_hours: 12 },
    tasks: [NO_LEADS],
    insight: row(60, 0, 5000),
    hourly: hourly(24, 2.5),
    verdict: 'lag_allowance',
  },
  {
    name: 'no leads, $120 spent, $30 in the last 12 h: still crosses with the allowance',
    judging: { maturity_hours: 0, maturity_impressions: 0, lag_hours: 12 },
    tasks: [NO_LEADS],
    insight: row(120, 0, 5000),
    hourly: hourly(24, 2.5),
    verdict: 'acted',
  },
  {
    name: 'CPL $30 on all spend, $15 on spend older than 12 h: lag allowance',
    judging: { maturity_hours: 0, maturity_impressions: 0, lag_hours: 12 },
    tasks: [CPL],
    insight: row(60, 2, 5000),
    hourly: hourly(24, 2.5),
    verdict: 'lag_allowance',
  },
  {
    name: 'no allowance set: the whole spend counts',
    judging: { maturity_hours: 0, maturity_impressions: 0, lag_hours: null },
    tasks: [NO_LEADS],
    insight: row(60, 0, 5000),
    hourly: hourly(24, 2.5),
    verdict: 'acted',
  },
  // The allowance is for leads that come late: an instant-form ad's leads show within minutes.
  {
    name: 'website-lead ad (optimised for website conversions), no leads, $30 of $60 in the last 12 h: lag allowance',
    judging: { maturity_hours: 0, maturity_impressions: 0, lag_hours: 12 },
    tasks: [NO_LEADS],
    insight: { ...row(60, 0, 5000), optimization_goal: 'OFFSITE_CONVERSIONS' },
    hourly: hourly(24, 2.5),
    verdict: 'lag_allowance',
  },
  {
    name: 'instant-form ad (optimised for lead forms), no leads, $30 of $60 in the last 12 h: judged on all spend',
    judging: { maturity_hours: 0, maturity_impressions: 0, lag_hours: 12 },
    tasks: [NO_LEADS],
    insight: { ...row(60, 0, 5000), optimization_goal: 'LEAD_GENERATION' },
    hourly: hourly(24, 2.5),
    verdict: 'acted',
  },
  {
    name: 'instant-form ad that has had website leads: lag allowance',
    judging: { maturity_hours: 0, maturity_impressions: 0, lag_hours: 12 },
    tasks: [CPL],
    insight: {
      ...row(60, 0, 5000),
      optimization_goal: 'LEAD_GENERATION',
      actions: [{ action_type: 'offsite_conversion.fb_pixel_lead', value: '2' }],
    },
    hourly: hourly(24, 2.5),
    verdict: 'lag_allowance',
  },
  {
    name: 'link-click task is not a lead task: no allowance',
    judging: { maturity_hours: 0, maturity_impressions: 0, lag_hours: 12 },
    tasks: [task('spend_no_links_clicks', { spend: '40' })],
    insight: { ...row(60, 0, 5000), inline_link_clicks: undefined },
    hourly: hourly(24, 2.5),
    verdict: 'acted',
  },
  // Cooling down: turned back on within the cool-down.
  {
    name: 'turned back on 3 hours ago, cool-down 24 h: cooling down',
    judging: {},
    tasks: [NO_LEADS],
    insight: row(200, 0, 50_000),
    history: { lastTurnedOnAt: hoursAgo(3) },
    verdict: 'cooling_down',
  },
  {
    name: 'turned back on 25 hours ago, cool-down 24 h: judged',
    judging: {},
    tasks: [NO_LEADS],
    insight: row(200, 0, 50_000),
    history: { lastTurnedOnAt: hoursAgo(25) },
    verdict: 'acted',
  },
  {
    name: 'carried-over rule (no cool-down): turned back on an hour ago is judged',
    judging: CARRIED_OVER_JUDGING,
    tasks: [NO_LEADS],
    insight: row(200, 0, 50_000),
    history: { lastTurnedOnAt: hoursAgo(1) },
    verdict: 'acted',
  },
  {
    name: 'cooling down comes before too early',
    judging: {},
    tasks: [NO_LEADS],
    insight: row(60, 0, 100),
    history: { lastTurnedOnAt: hoursAgo(1) },
    verdict: 'cooling_down',
  },
];

describe('judging verdicts', () => {
  it.each(CASES)('$name', (c) => {
    const history = new Map(c.history ? [['a1', c.history]] : []);
    const result = evaluate(rule(c.judging, c.tasks), snapshot(c.insight, c.hourly), { history });
    const verdicts = Object.values(result.objects[0]!.verdicts);
    expect(verdicts).toEqual(c.tasks.map(() => c.verdict));
    expect(result.actions.map((a) => a.objectId)).toEqual(c.verdict === 'acted' ? ['a1'] : []);
  });

  it('names the allowance in the reason of a turn-off it did not prevent', () => {
    const result = evaluate(
      rule({ maturity_hours: 0, maturity_impressions: 0, lag_hours: 12 }, [NO_LEADS]),
      snapshot(row(120, 0, 5000), hourly(24, 2.5)),
    );
    expect(result.actions[0]!.reason).toMatchObject({
      Spend: '$90.00 > $40.00',
      'Lag allowance': 'spend of the last 12 h ($30.00) left out',
    });
  });

  it('a campaign turned back on within the cool-down is not turned off by the seat limit', () => {
    const seat = rule({}, [task('campaign_leads', { leads: '5' })]);
    const history = new Map([['c1', { lastTurnedOnAt: hoursAgo(2) }]]);
    const result = evaluate(seat, snapshot(row(100, 8, 5000)), { history });
    expect(result.objects[0]!.verdicts).toEqual({ campaign_leads: 'cooling_down' });
    expect(result.actions).toEqual([]);
  });
});

describe('revive', () => {
  const reviving = (tasks: RuleItem[]) => rule({ revive_hours: 72 }, tasks);
  const pausedAd = (insight: InsightRow): AccountSnapshot => ({
    ...snapshot(insight),
    ads: [{ ...AD, status: 'PAUSED', effective_status: 'PAUSED' }],
  });
  const turnOff = (reason: Record<string, string>, hours = 20) => [
    { entryId: 7, objectId: 'a1', at: hoursAgo(hours), reason },
  ];

  it('turns back on an ad whose late leads arrived, naming them and the new CPL', () => {
    const decisions = reviveDecisions(
      reviving([NO_LEADS, CPL]),
      pausedAd(row(60, 4, 5000)),
      turnOff({ Spend: '$60.00 > $40.00', Leads: '0' }),
    );
    expect(decisions).toEqual([
      expect.objectContaining({
        entryId: 7,
        objectId: 'a1',
        reason: expect.objectContaining({ 'Leads arrived': '4 since the turn-off (0 → 4)', CPL: '$15.00' }),
      }),
    ]);
  });

  it.each<{ name: string; reason: Record<string, string> }>([
    { name: 'the turn-off named 0 leads', reason: { Spend: '$60.00 > $40.00', Leads: '0' } },
    { name: 'the turn-off did not name its leads', reason: { Spend: '$60.00 > $40.00' } },
  ])('no leads arrived → no revive, though the numbers no longer cross ($name)', ({ reason }) => {
    // Someone raised the threshold since: $60 with no leads is now under it, but nothing converted.
    const raised = reviving([task('spend_cpl_no_leads', { spend: '100' })]);
    expect(reviveDecisions(raised, pausedAd(row(60, 0, 5000)), turnOff(reason))).toEqual([]);
  });

  it('leaves alone a turn-off older than the revive window, and an ad turned back on since', () => {
    const arrived = row(60, 4, 5000);
    expect(reviveDecisions(reviving([NO_LEADS]), pausedAd(arrived), turnOff({ Leads: '0' }, 80))).toEqual([]);
    expect(reviveDecisions(reviving([NO_LEADS]), snapshot(arrived), turnOff({ Leads: '0' }))).toEqual([]);
  });
});

describe('conflicts between active rules of a folder', () => {
  const filters = (contains: string[]) => [{ name: 'campaign_name_contains', values: contains, is_active: true }];
  const conflictRule = (id: number, tasks: RuleItem[], judging: Partial<RuleJudging> = {}, contains = ['EDM']) => ({
    ...rule(judging, tasks),
    id,
    name: `Rule ${id}`,
    rule_filter: filters(contains),
    isActive: true,
  });

  it('flags a rule that revives what another pauses, on both rules', () => {
    const revives = conflictRule(1, [task('trigger_cpl', { cpl: '50' })], { revive_hours: 72 });
    const stricter = conflictRule(2, [task('trigger_cpl', { cpl: '30' })]);
    const found = folderConflicts([revives, stricter]);
    expect(found.map((c) => [c.rule_id, c.other_rule_id, c.kind])).toEqual([
      [1, 2, 'revives_what_other_pauses'],
      [2, 1, 'revives_what_other_pauses'],
      [1, 2, 'same_filters'],
      [2, 1, 'same_filters'],
    ]);
    expect(found[0]!.detail).toBe(
      '"Rule 1" turns back on ads that "Rule 2" turns off (Turn off the ad if CPL is above a value)',
    );
  });

  it('leaves alone rules on other campaigns, inactive rules, and a reviving rule as strict as the other', () => {
    const revives = conflictRule(1, [task('trigger_cpl', { cpl: '30' })], { revive_hours: 72 });
    expect(folderConflicts([revives, conflictRule(2, [task('trigger_cpl', { cpl: '50' })])])).toEqual([
      expect.objectContaining({ kind: 'same_filters' }),
      expect.objectContaining({ kind: 'same_filters' }),
    ]);
    expect(folderConflicts([revives, conflictRule(3, [CPL], {}, ['Webinar'])])).toEqual([]);
    expect(
      folderConflicts([revives, { ...conflictRule(4, [task('trigger_cpl', { cpl: '10' })]), isActive: false }]),
    ).toEqual([]);
  });

  it('flags a rule raising the budgets another lowers, and one turning on what another turns off', () => {
    const cheap = {
      match: 'all' as const,
      conditions: [{ metric: 'cpl' as const, window: 'last_3_days' as const, op: '<' as const, value: 30 }],
    };
    const raises = {
      ...conflictRule(1, []),
      conditions: cheap,
      action: { kind: 'raise_budget' as const, level: 'adset' as const, change: { percent: 20 } },
    };
    const lowers = {
      ...conflictRule(2, []),
      conditions: cheap,
      action: { kind: 'lower_budget' as const, level: 'adset' as const, change: { percent: 20 } },
    };
    const elsewhere = { ...lowers, id: 3, rule_filter: filters(['Webinar']) };
    expect(
      folderConflicts([raises, lowers, elsewhere]).map((c) => [c.rule_id, c.other_rule_id, c.kind, c.detail]),
    ).toEqual([
      [1, 2, 'opposite_budgets', '"Rule 1" raises budgets that "Rule 2" lowers'],
      [2, 1, 'opposite_budgets', '"Rule 1" raises budgets that "Rule 2" lowers'],
    ]);
    const turnsOn = {
      ...conflictRule(4, []),
      conditions: cheap,
      action: { kind: 'turn_on' as const, level: 'ad' as const },
    };
    expect(folderConflicts([turnsOn, conflictRule(5, [CPL])]).map((c) => [c.rule_id, c.kind])).toEqual([
      [4, 'turns_on_what_other_pauses'],
      [5, 'turns_on_what_other_pauses'],
    ]);
  });
});
