/**
 * The tasks on what a lead became (server/judgement/outcomeTasks.ts through evaluate()): cost per
 * attendee, show-up rate and cost per CRM stage wait for the event (or the stage's window) and for
 * their minimum, answer "no outcome data" without a quality source, and name the raw CPL beside the
 * cost they judge. Also: a maturity longer than the three days of hourly rows is honoured.
 */
import { describe, expect, it } from 'vitest';
import type { Ad, Campaign, InsightRow } from '../../../server/adplatform/types';
import { evaluate, type AccountSnapshot } from '../../../server/judgement/evaluate';
import type { HourlyRow } from '../../../server/judgement/lateData';
import { folderConflicts } from '../../../server/judgement/conflicts';
import { reviveDecisions } from '../../../server/judgement/revive';
import { crossedText } from '../../../server/judgement/runRecord';
import type { EngineRule, RuleItem } from '../../../server/judgement/ruleShape';
import type { AdQuality } from '../../../server/outcomes/quality';
import { CARRIED_OVER_JUDGING, type RuleJudging } from '../../../shared/judging';

const CAMPAIGN: Campaign = { id: 'c1', name: 'EDM EP-W 2025-03-04 6PM', status: 'ACTIVE', effective_status: 'ACTIVE' };
const AD: Ad = {
  id: 'a1',
  name: 'Ad one',
  status: 'ACTIVE',
  effective_status: 'ACTIVE',
  campaign_id: 'c1',
  adset_id: 's1',
};
const NOW = new Date('2025-03-10T12:00:00Z');

/** 40 leads for $600: CPL $15.00. */
const ROW: InsightRow = {
  campaign_id: 'c1',
  campaign_name: CAMPAIGN.name,
  ad_id: 'a1',
  ad_name: 'Ad one',
  spend: '600',
  impressions: '5000',
  actions: [{ action_type: 'lead', value: '40' }],
};

/** 40 registrations, all settled by one event that happened, 12 of them attended: $50.00 per attendee. */
const quality = (overrides: Partial<AdQuality> = {}): AdQuality => ({
  registrations: 40,
  settledRegistrations: 40,
  attendees: 12,
  eventsHappened: 1,
  nextEventAt: null,
  settledSpend: 600,
  stages: {},
  ...overrides,
});

const rule = (tasks: RuleItem[], judging: Partial<RuleJudging> = {}): EngineRule => ({
  id: 1,
  name: 'Rule',
  rule_filter: [{ name: 'campaign_name_contains', values: ['EDM'], is_active: true }],
  rule_task: tasks,
  judging: { ...CARRIED_OVER_JUDGING, ...judging },
});

const task = (name: string, values: Record<string, string>): RuleItem => ({ name, values, is_active: true });

function judge(item: RuleItem, adQuality: AdQuality | undefined, judging: Partial<RuleJudging> = {}) {
  const snapshot: AccountSnapshot = {
    currency: 'USD',
    campaigns: [CAMPAIGN],
    ads: [{ ...AD, ...(adQuality ? { quality: adQuality } : {}) }],
    insights: [ROW],
  };
  const result = evaluate(rule([item], judging), snapshot, { now: NOW });
  return { verdict: result.objects[0]!.verdicts[item.name as never], action: result.actions[0] };
}

const attendee = (cost: string, min = '20') => task('cost_per_attendee', { cost, min_registrations: min });
const showUp = (rate: string, min = '20') => task('show_up_rate', { rate, min_registrations: min });
const stage = (name: string, cost: string, min = '10') => task('cost_per_stage', { stage: name, cost, min_leads: min });

describe('the tasks on what a lead became', () => {
  it.each([
    // cost per attendee: $600 / 12 attendees = $50.00
    [
      'cost per attendee over, even at the best show-up chance allows (43 %: $34.99)',
      attendee('30'),
      quality(),
      'acted',
    ],
    ['cost per attendee over, but within what chance allows', attendee('40'), quality(), 'too_early'],
    ['cost per attendee at the line', attendee('50'), quality(), 'under_threshold'],
    [
      'before the ad’s event has happened',
      attendee('40'),
      quality({ eventsHappened: 0, settledRegistrations: 0, attendees: 0, nextEventAt: '2025-03-12T23:00:00Z' }),
      'waiting_for_event',
    ],
    ['after the event, below the minimum settled registrations', attendee('40', '50'), quality(), 'too_early'],
    ['no attendee at all and the settled spend over the line', attendee('40'), quality({ attendees: 0 }), 'acted'],
    ['no outcome known for the ad', attendee('40'), undefined, 'no_outcome_data'],
    // show-up rate: 12 of 40 = 30 %
    ['show-up below the rate, even at the best chance allows (42.9 %)', showUp('45'), quality(), 'acted'],
    ['show-up below the rate, but within what chance allows', showUp('35'), quality(), 'too_early'],
    ['show-up above the rate', showUp('25'), quality(), 'under_threshold'],
    [
      'show-up before the event',
      showUp('35'),
      quality({ eventsHappened: 0, settledRegistrations: 0, attendees: 0 }),
      'waiting_for_event',
    ],
    ['show-up below the minimum', showUp('35', '41'), quality(), 'too_early'],
    ['show-up without outcomes', showUp('35'), undefined, 'no_outcome_data'],
    // cost per qualified: 30 of the 40 leads past the window ($450 of spend), 5 qualified = $90.00
    [
      'cost per stage over, even at the best rate chance allows ($49.19)',
      stage('qualified', '45'),
      quality({ stages: { qualified: { reached: 5, judged: 30 } } }),
      'acted',
    ],
    [
      'cost per stage over, but within what chance allows',
      stage('qualified', '80'),
      quality({ stages: { qualified: { reached: 5, judged: 30 } } }),
      'too_early',
    ],
    [
      'cost per stage under',
      stage('qualified', '100'),
      quality({ stages: { qualified: { reached: 5, judged: 30 } } }),
      'under_threshold',
    ],
    [
      'no lead past the stage’s window yet',
      stage('qualified', '80'),
      quality({ stages: { qualified: { reached: 2, judged: 0 } } }),
      'waiting_for_event',
    ],
    [
      'fewer leads past the window than the minimum',
      stage('qualified', '80', '31'),
      quality({ stages: { qualified: { reached: 5, judged: 30 } } }),
      'too_early',
    ],
    [
      'a stage the CRM has not reported',
      stage('won', '80'),
      quality({ stages: { qualified: { reached: 5, judged: 30 } } }),
      'waiting_for_event',
    ],
  ])('%s', (_name, item, adQuality, verdict) => {
    const { verdict: got, action } = judge(item, adQuality);
    expect(got).toBe(verdict);
    expect(action !== undefined).toBe(verdict === 'acted');
  });

  it('names the raw CPL beside the cost per attendee, and how many registrants attended', () => {
    const { action } = judge(attendee('30'), quality());
    expect(action!.reason).toMatchObject({
      'Cost per attendee': '$50.00 > $30.00',
      CPL: '$15.00',
      'Show-up': '12 of 40 registrants attended',
      'At best': '$34.99 at a 43% rate, the highest chance allows',
    });
    expect(crossedText(action!.reason)).toBe(
      'Cost per attendee $50.00 > $30.00 · CPL $15.00 · Show-up 12 of 40 registrants attended',
    );
  });

  it('judges only the registrations of events that happened: the next event’s registrants wait', () => {
    // 100 registrations, 40 settled (event one: $600 of their spend), 12 attended; 60 wait for event two.
    const partly = quality({ registrations: 100, settledRegistrations: 40, nextEventAt: '2025-03-12T23:00:00Z' });
    expect(judge(attendee('30'), partly).action!.reason['Cost per attendee']).toBe('$50.00 > $30.00');
  });

  it('names the stage, the raw CPL and the leads past the window for cost per stage', () => {
    const { action } = judge(stage('qualified', '45'), quality({ stages: { qualified: { reached: 5, judged: 30 } } }));
    expect(action!.reason).toMatchObject({
      'Cost per qualified': '$90.00 > $45.00',
      CPL: '$15.00',
      Reached: "5 qualified of 30 leads past the stage's window",
    });
  });

  it('does not wait for the hours of maturity: the event is their maturity', () => {
    const { verdict } = judge(attendee('30'), quality(), { maturity_hours: 0, maturity_impressions: 1_000_000 });
    expect(verdict).toBe('acted');
  });
});

describe('a maturity longer than the hourly rows', () => {
  const HOUR = 3_600_000;
  const hourlySince = new Date(NOW.getTime() - 72 * HOUR);
  /** The ad delivered in every hour of the hourly rows (1 impression each) and `impressions` in all. */
  const deliveringAd = (firstHour: Date, impressions: number): HourlyRow[] => {
    const rows: HourlyRow[] = [];
    for (let t = Math.max(firstHour.getTime(), hourlySince.getTime()); t < NOW.getTime(); t += HOUR)
      rows.push({ ad_id: 'a1', hour: new Date(t).toISOString(), spend: 1, impressions: impressions > 0 ? 1 : 0 });
    return rows;
  };
  const cplRule = rule([task('trigger_cpl', { cpl: '10' })], { maturity_hours: 96, carried_over: false });

  function verdictOf(snapshot: Partial<AccountSnapshot>) {
    const full: AccountSnapshot = { currency: 'USD', campaigns: [CAMPAIGN], ads: [AD], insights: [ROW], ...snapshot };
    return evaluate(cplRule, full, { now: NOW }).objects[0]!.verdicts.trigger_cpl;
  }

  it('judges an ad 5 days old mature under a 96-hour maturity (its first day in the daily read)', () => {
    const started = new Date(NOW.getTime() - 5 * 24 * HOUR);
    expect(
      verdictOf({
        hourly: deliveringAd(hourlySince, 1),
        hourlySince: hourlySince.toISOString(),
        // It delivered on the day it started: by that day's end at the latest.
        deliveredBy: { a1: new Date(started.getTime() + 24 * HOUR).toISOString() },
        dailySince: new Date(NOW.getTime() - 6 * 24 * HOUR).toISOString(),
      }),
    ).toBe('acted');
  });

  it('judges an ad 2 days old too early under a 96-hour maturity', () => {
    const started = new Date(NOW.getTime() - 2 * 24 * HOUR);
    expect(
      verdictOf({
        hourly: deliveringAd(started, 1),
        hourlySince: hourlySince.toISOString(),
        insights: [{ ...ROW, impressions: String(deliveringAd(started, 1).length) }],
        dailySince: new Date(NOW.getTime() - 6 * 24 * HOUR).toISOString(),
      }),
    ).toBe('too_early');
  });

  it('no longer passes an ad older than the hourly rows as mature when the daily read says it is younger', () => {
    // Started 3.5 days ago: before the hourly rows, but short of 96 hours.
    const started = new Date(NOW.getTime() - 84 * HOUR);
    expect(
      verdictOf({
        hourly: deliveringAd(hourlySince, 1),
        hourlySince: hourlySince.toISOString(),
        deliveredBy: { a1: new Date(started.getTime() + 12 * HOUR).toISOString() },
        dailySince: new Date(NOW.getTime() - 6 * 24 * HOUR).toISOString(),
      }),
    ).toBe('too_early');
  });
});

describe('revive and conflicts of the outcome tasks', () => {
  const pausedAd: Ad = { ...AD, status: 'PAUSED', effective_status: 'PAUSED' };
  const reviving = rule([attendee('40')], { revive_hours: 72, carried_over: false });
  const turnOff = {
    entryId: 7,
    objectId: 'a1',
    at: new Date(NOW.getTime() - 3_600_000),
    reason: { 'Cost per attendee': '$50.00 > $40.00', CPL: '$15.00', 'Show-up': '12 of 40 registrants attended' },
  };
  const revivedWith = (adQuality: AdQuality, leads = 60) =>
    reviveDecisions(
      reviving,
      {
        currency: 'USD',
        campaigns: [CAMPAIGN],
        ads: [{ ...pausedAd, quality: adQuality }],
        insights: [{ ...ROW, actions: [{ action_type: 'lead', value: String(leads) }] }],
      },
      [turnOff],
      { now: NOW },
    );

  it('does not revive on late leads alone: the attendees it was paused on have not grown', () => {
    expect(revivedWith(quality({ settledSpend: 400 }))).toEqual([]);
  });

  it('revives when attendees arrived since and the cost per attendee is under the line', () => {
    const [decision] = revivedWith(quality({ attendees: 20 }));
    expect(decision!.reason).toMatchObject({
      'Attendees arrived': '8 since the turn-off (12 → 20)',
      'Show-up': '20 of 40 registrants attended',
    });
  });

  it('counts two rules with one filter and different cost-per-attendee lines as a conflict', () => {
    const a = { ...rule([attendee('40')]), id: 1, name: 'Strict', isActive: true };
    const b = { ...rule([attendee('60')]), id: 2, name: 'Loose', isActive: true };
    expect(folderConflicts([a, b]).map((c) => [c.rule_id, c.kind, c.detail])).toContainEqual([
      1,
      'same_filters',
      'Same campaigns, "Turn off the ad if cost per attendee is above a value": cost 40, min_registrations 20 in "Strict", cost 60, min_registrations 20 in "Loose"',
    ]);
  });
});
