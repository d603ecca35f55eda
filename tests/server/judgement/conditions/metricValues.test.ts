/**
 * The numbers conditions compare (server/judgement/conditions/metricValues.ts): each catalogue metric
 * from a Graph row, unknown (never 0) when it cannot be known, results as website leads for a
 * website-leads ad set, and the show-up metrics from what the leads became, summed for a campaign.
 */
import { describe, expect, it } from 'vitest';
import type { InsightRow } from '../../../../server/adplatform/types';
import {
  NO_DATA,
  metricsOfRow,
  showUpMetrics,
  sumMetrics,
  withShowUp,
  type WindowMetrics,
} from '../../../../server/judgement/conditions/metricValues';
import type { AdQuality } from '../../../../server/outcomes/quality';
import { METRIC_KEYS } from '../../../../shared/ruleConditions';

const row = (fields: Partial<InsightRow>): InsightRow => ({
  campaign_id: 'c1',
  campaign_name: 'C',
  spend: '0',
  ...fields,
});

/** $420 for 12,000 impressions, 4,000 people, 240 clicks (180 on links), 10 leads of which 4 website. */
const FULL = row({
  spend: '420.00',
  impressions: '12000',
  reach: '4000',
  frequency: '3.000000',
  clicks: '240',
  inline_link_clicks: '180',
  ctr: '2.000000',
  cpc: '1.750000',
  cpm: '35.000000',
  actions: [
    { action_type: 'lead', value: '10', '7d_click': '8' },
    { action_type: 'offsite_conversion.fb_pixel_lead', value: '4', '7d_click': '3' },
  ],
});

describe('metricsOfRow', () => {
  it.each<[string, InsightRow | null, Partial<WindowMetrics>]>([
    [
      'every metric Graph reports',
      FULL,
      {
        spend: 420,
        impressions: 12000,
        reach: 4000,
        frequency: 3,
        clicks: 240,
        link_clicks: 180,
        ctr: 2,
        cpc: 1.75,
        cpm: 35,
        leads: 10,
        cpl: 42,
        results: 10,
        cost_per_result: 42,
      },
    ],
    [
      'rates worked out when Graph leaves them out',
      row({ spend: '50', impressions: '2000', reach: '1000', clicks: '20' }),
      { frequency: 2, ctr: 1, cpc: 2.5, cpm: 25 },
    ],
    [
      'no lead: 0 leads, CPL unknown',
      row({ spend: '80', impressions: '3000' }),
      { leads: 0, cpl: null, results: 0, cost_per_result: null, link_clicks: 0 },
    ],
    [
      'no click reported: clicks, CTR and CPC unknown',
      row({ spend: '80', impressions: '3000' }),
      { clicks: null, ctr: null, cpc: null },
    ],
    [
      'no reach asked for: reach and frequency unknown',
      row({ spend: '80', impressions: '3000' }),
      { reach: null, frequency: null },
    ],
    [
      'a website-leads ad set: its results are its website leads',
      { ...FULL, optimization_goal: 'OFFSITE_CONVERSIONS' },
      { leads: 10, results: 4, cost_per_result: 105 },
    ],
    [
      'an instant-form ad set: its results are its leads',
      { ...FULL, optimization_goal: 'LEAD_GENERATION' },
      { results: 10, cost_per_result: 42 },
    ],
    ['no row: no data', null, NO_DATA],
    ['no impressions: no data', row({ spend: '12' }), NO_DATA],
    ['a spend that is not a number: no data', row({ spend: '', impressions: '100' }), NO_DATA],
  ])('%s', (_, input, expected) => {
    expect(metricsOfRow(input)).toMatchObject(expected);
  });

  it('counts leads in the attribution window asked for', () => {
    expect(metricsOfRow({ ...FULL, optimization_goal: 'OFFSITE_CONVERSIONS' }, '7d_click')).toMatchObject({
      leads: 8,
      cpl: 52.5,
      results: 3,
      cost_per_result: 140,
    });
  });

  it('knows no show-up metric from a row alone', () => {
    expect(metricsOfRow(FULL)).toMatchObject({
      registrations: null,
      attendees: null,
      show_up_rate: null,
      cost_per_attendee: null,
    });
  });

  it('answers every metric of the catalogue', () => {
    expect(Object.keys(metricsOfRow(FULL)).sort()).toEqual([...METRIC_KEYS].sort());
  });
});

describe('sumMetrics', () => {
  it('adds counts and spend, works out the rates again, leaves reach unknown', () => {
    const a = metricsOfRow(
      row({
        spend: '100',
        impressions: '4000',
        reach: '3000',
        clicks: '40',
        actions: [{ action_type: 'lead', value: '4' }],
      }),
    );
    const b = metricsOfRow(
      row({
        spend: '50',
        impressions: '1000',
        reach: '900',
        clicks: '10',
        actions: [{ action_type: 'lead', value: '1' }],
      }),
    );
    expect(sumMetrics([a, b, NO_DATA])).toMatchObject({
      spend: 150,
      impressions: 5000,
      clicks: 50,
      ctr: 1,
      cpc: 3,
      cpm: 30,
      leads: 5,
      cpl: 30,
      reach: null,
      frequency: null,
    });
  });

  it('is no data when none of its objects has any', () => {
    expect(sumMetrics([NO_DATA])).toEqual(NO_DATA);
    expect(sumMetrics([])).toEqual(NO_DATA);
  });
});

const quality = (overrides: Partial<AdQuality> = {}): AdQuality => ({
  registrations: 40,
  settledRegistrations: 30,
  attendees: 12,
  eventsHappened: 1,
  nextEventAt: null,
  settledSpend: 600,
  stages: {},
  ...overrides,
});

describe('showUpMetrics', () => {
  it.each([
    ['one ad', [{ quality: quality() }], { registrations: 40, attendees: 12, show_up_rate: 40, cost_per_attendee: 50 }],
    [
      'a campaign: its ads summed',
      [
        { quality: quality() },
        { quality: quality({ registrations: 10, settledRegistrations: 10, attendees: 8, settledSpend: 200 }) },
      ],
      { registrations: 50, attendees: 20, show_up_rate: 50, cost_per_attendee: 40 },
    ],
    [
      'no event happened yet: rate and cost unknown',
      [{ quality: quality({ settledRegistrations: 0, attendees: 0, eventsHappened: 0, settledSpend: null }) }],
      { registrations: 40, attendees: 0, show_up_rate: null, cost_per_attendee: null },
    ],
    [
      'nobody attended: a 0% rate, the cost unknown',
      [{ quality: quality({ attendees: 0 }) }],
      { show_up_rate: 0, cost_per_attendee: null },
    ],
    [
      "no settled spend from the store: the settled registrations' share at the lifetime CPL",
      [{ quality: quality({ settledSpend: null }), lifetime: { spend: 800, leads: 40 } }],
      { cost_per_attendee: 50 },
    ],
    [
      'no settled spend and no lifetime metrics: the cost unknown',
      [{ quality: quality({ settledSpend: null }) }],
      { cost_per_attendee: null, show_up_rate: 40 },
    ],
    [
      'no outcome store knows the ad',
      [],
      { registrations: null, attendees: null, show_up_rate: null, cost_per_attendee: null },
    ],
  ])('%s', (_, ads, expected) => {
    expect(showUpMetrics(ads)).toEqual(expect.objectContaining(expected));
  });

  it('fills the lifetime metrics', () => {
    const lifetime = withShowUp(metricsOfRow(FULL), showUpMetrics([{ quality: quality() }]));
    expect(lifetime).toMatchObject({ cpl: 42, attendees: 12, cost_per_attendee: 50 });
  });
});
