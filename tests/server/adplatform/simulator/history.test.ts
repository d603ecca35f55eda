/**
 * History that adds up, through the simulator's insights edge: days sum to the lifetime and hours to
 * their day at every level, also while late leads are still arriving; a late lead moves into its
 * past hour as the clock advances; time increments, time ranges, breakdowns and attribution windows
 * answer as Graph does, and what is not simulated is refused naming the parameter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../../server/adplatform/simulator/index';

const START = '2026-03-04T20:00:00Z'; // 15:00 in New York, the first account's zone
const HOURLY = 'hourly_stats_aggregated_by_advertiser_time_zone';

interface Action {
  action_type: string;
  value: string;
  [window: string]: string;
}
type Row = Record<string, string | undefined> & { actions?: Action[] };

let sim: Simulator;
let account: string;
beforeAll(async () => {
  sim = await startSimulator({ seed: 4, start: START, speed: 0, accounts: 2, campaignsPerAccount: 5 });
  account = `act_${sim.world.accounts[0]!.accountId}`;
});
afterAll(() => sim.close());

async function call(method: 'GET' | 'POST', path: string, params: Record<string, string | object> = {}) {
  const query = new URLSearchParams({ access_token: 't' });
  for (const [key, value] of Object.entries(params))
    query.set(key, typeof value === 'string' ? value : JSON.stringify(value));
  const response = await fetch(`${sim.url}/v25.0/${path}?${query}`, { method });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Every row of an insights call, following `paging.next`. */
async function rows(path: string, params: Record<string, string | object>): Promise<Row[]> {
  const first = await call('GET', path, { limit: '100', ...params });
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  const out = [...(first.body.data as Row[])];
  let next = (first.body.paging as { next?: string } | undefined)?.next;
  while (next) {
    const page = (await (await fetch(next)).json()) as { data: Row[]; paging?: { next?: string } };
    out.push(...page.data);
    next = page.paging?.next;
  }
  return out;
}

const FIELDS = 'campaign_id,adset_id,ad_id,spend,impressions,clicks,inline_link_clicks,actions';
const lead = (row: Row | undefined, type = 'lead') =>
  Number(row?.actions?.find((a) => a.action_type === type)?.value ?? 0);
const numbers = (row: Row) => ({
  spendCents: Math.round(Number(row.spend) * 100),
  impressions: Number(row.impressions),
  clicks: Number(row.clicks),
  linkClicks: Number(row.inline_link_clicks),
  leads: lead(row),
  websiteLeads: lead(row, 'offsite_conversion.fb_pixel_lead'),
});
type Numbers = ReturnType<typeof numbers>;
const sum = (list: Numbers[]) =>
  list.reduce(
    (a, b) => ({
      spendCents: a.spendCents + b.spendCents,
      impressions: a.impressions + b.impressions,
      clicks: a.clicks + b.clicks,
      linkClicks: a.linkClicks + b.linkClicks,
      leads: a.leads + b.leads,
      websiteLeads: a.websiteLeads + b.websiteLeads,
    }),
    { spendCents: 0, impressions: 0, clicks: 0, linkClicks: 0, leads: 0, websiteLeads: 0 },
  );
const keyOf = (level: string, row: Row) =>
  level === 'account' ? 'account' : String(row[`${level === 'adset' ? 'adset' : level}_id`]);

/** Rows summed per entity of the level (and optionally per another key). */
function byEntity(level: string, list: Row[], extra: (row: Row) => string = () => '') {
  const groups = new Map<string, Numbers[]>();
  for (const row of list) {
    const key = `${keyOf(level, row)}|${extra(row)}`;
    groups.set(key, [...(groups.get(key) ?? []), numbers(row)]);
  }
  return new Map([...groups].map(([key, values]) => [key, sum(values)]));
}

const WHOLE = { since: '2025-12-01', until: '2026-03-04' };

describe('history that adds up', () => {
  it.each(['account', 'campaign', 'adset', 'ad'])('sums days to the lifetime at the %s level', async (level) => {
    const [lifetime, daily, maximum] = await Promise.all([
      rows(`${account}/insights`, { level, fields: FIELDS, time_range: WHOLE }),
      rows(`${account}/insights`, { level, fields: FIELDS, time_range: WHOLE, time_increment: '1' }),
      rows(`${account}/insights`, { level, fields: FIELDS, date_preset: 'maximum' }),
    ]);
    expect(lifetime.length).toBeGreaterThan(0);
    expect(daily.length).toBeGreaterThan(lifetime.length);
    expect(byEntity(level, daily)).toEqual(byEntity(level, lifetime));
    expect(byEntity(level, maximum)).toEqual(byEntity(level, lifetime));
    for (const row of daily) expect(row.date_start).toBe(row.date_stop);
    // Late leads are still on their way for the last days, and the days still add up.
    expect(sum([...byEntity(level, lifetime).values()]).leads).toBeGreaterThan(0);
  });

  it.each(['campaign', 'ad'])('sums hours to their day at the %s level, today and the days before', async (level) => {
    const range = { since: '2026-03-02', until: '2026-03-04' };
    const [daily, hourly] = await Promise.all([
      rows(`${account}/insights`, { level, fields: FIELDS, time_range: range, time_increment: '1' }),
      rows(`${account}/insights`, {
        level,
        fields: FIELDS,
        time_range: range,
        time_increment: '1',
        breakdowns: [HOURLY],
      }),
    ]);
    const day = (row: Row) => String(row.date_start);
    expect(byEntity(level, hourly, day)).toEqual(byEntity(level, daily, day));
    expect(hourly.every((row) => /^\d{2}:00:00 - \d{2}:59:59$/.test(String(row[HOURLY])))).toBe(true);
    expect(hourly.some((row) => 'reach' in row)).toBe(false);
    expect(new Set(hourly.map((row) => row[HOURLY])).size).toBeGreaterThan(12);
  });

  it('answers the same sums from the campaign and ad set paths', async () => {
    const { campaignId } = sim.scenario('steady_converter');
    const [lifetime] = await rows(`${campaignId}/insights`, { fields: FIELDS, date_preset: 'maximum' });
    const daily = await rows(`${campaignId}/insights`, { fields: FIELDS, time_range: WHOLE, time_increment: '1' });
    expect(sum(daily.map(numbers))).toEqual(numbers(lifetime!));
    const adset = sim.world.adsOf(campaignId)[0]!.adsetId;
    const [fromAdset] = await rows(`${adset}/insights`, { fields: FIELDS, date_preset: 'maximum' });
    expect(numbers(fromAdset!)).toEqual(numbers(lifetime!));
  });

  it("moves a late lead into its past hour as the clock advances, and that hour's numbers then stay", async () => {
    const adId = sim.scenario('website_cpl_high').adIds[0]!;
    const params = {
      level: 'ad',
      fields: FIELDS,
      time_range: { since: '2026-03-04', until: '2026-03-04' },
      breakdowns: [HOURLY],
      filtering: [{ field: 'ad.id', operator: 'EQUAL', value: adId }],
    };
    const hourLeads = (list: Row[]) => new Map(list.map((row) => [String(row[HOURLY]), lead(row)]));
    const before = hourLeads(await rows(`${account}/insights`, params));
    sim.advanceHours(80);
    const after = hourLeads(await rows(`${account}/insights`, params));
    // Hours that had already passed gained leads: each went to the hour it happened, not to the hour it arrived.
    const grownPast = [...before].filter(([hour, leads]) => after.get(hour)! > leads);
    expect(grownPast.length).toBeGreaterThan(0);
    for (const [hour, leads] of before) expect(after.get(hour)).toBeGreaterThanOrEqual(leads);
    const settled = sim.truth(adId, undefined, { since: '2026-03-04', until: '2026-03-04' }).settled as Row;
    expect([...after.values()].reduce((a, b) => a + b, 0)).toBe(lead(settled));
  });
});

describe('time increments and ranges', () => {
  it('cuts a period into N-day and monthly buckets that add up to it', async () => {
    const range = { since: '2026-01-10', until: '2026-03-04' };
    const [whole, weekly, monthly] = await Promise.all([
      rows(`${account}/insights`, { fields: FIELDS, time_range: range }),
      rows(`${account}/insights`, { fields: FIELDS, time_range: range, time_increment: '7' }),
      rows(`${account}/insights`, { fields: FIELDS, time_range: range, time_increment: 'monthly' }),
    ]);
    // Buckets count from `since`; those without impressions are left out, as on Graph.
    const day = (date: string | undefined) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;
    for (const row of weekly) {
      expect((day(row.date_start) - day(range.since)) % 7).toBe(0);
      expect(day(row.date_stop)).toBe(Math.min(day(row.date_start) + 6, day(range.until)));
    }
    expect(weekly.at(-1)!.date_stop).toBe('2026-03-04');
    const months = [
      ['2026-01-10', '2026-01-31'],
      ['2026-02-01', '2026-02-28'],
      ['2026-03-01', '2026-03-04'],
    ];
    expect(monthly.length).toBeGreaterThan(1);
    for (const row of monthly) expect(months).toContainEqual([row.date_start, row.date_stop]);
    expect(sum(weekly.map(numbers))).toEqual(numbers(whole[0]!));
    expect(sum(monthly.map(numbers))).toEqual(numbers(whole[0]!));
  });

  it('answers one result set per time range', async () => {
    const a = { since: '2026-02-01', until: '2026-02-14' };
    const b = { since: '2026-02-10', until: '2026-03-01' };
    const [both, first, second] = await Promise.all([
      rows(`${account}/insights`, { fields: FIELDS, time_ranges: [a, b] }),
      rows(`${account}/insights`, { fields: FIELDS, time_range: a }),
      rows(`${account}/insights`, { fields: FIELDS, time_range: b }),
    ]);
    expect(both).toEqual([...first, ...second]);
  });
});

describe('breakdowns and attribution windows', () => {
  it.each([['age'], ['gender'], ['age', 'gender'], ['publisher_platform']])(
    'splits rows by %s into segments that add up to the row',
    async (...breakdowns) => {
      const [whole, split] = await Promise.all([
        rows(`${account}/insights`, { level: 'campaign', fields: FIELDS, date_preset: 'last_7d' }),
        rows(`${account}/insights`, { level: 'campaign', fields: FIELDS, date_preset: 'last_7d', breakdowns }),
      ]);
      expect(byEntity('campaign', split)).toEqual(byEntity('campaign', whole));
      for (const row of split) for (const dimension of breakdowns) expect(row[dimension]).toEqual(expect.any(String));
      if (breakdowns.includes('age'))
        expect(new Set(split.map((r) => r.age))).toEqual(new Set(['45-54', '55-64', '65+']));
    },
  );

  it('gives lead actions a value per attribution window; 7d_view and 28d_view are no longer returned', async () => {
    const { campaignId } = sim.scenario('steady_converter');
    const [row] = await rows(`${campaignId}/insights`, {
      fields: 'spend,actions,cost_per_action_type',
      date_preset: 'maximum',
      action_attribution_windows: ['1d_click', '7d_click', '28d_click', '1d_view', '7d_view', '28d_view'],
    });
    const leadAction = row!.actions!.find((a) => a.action_type === 'lead')!;
    const n = (w: string) => Number(leadAction[w]);
    expect(n('value')).toBeGreaterThan(10);
    expect(n('1d_click')).toBeLessThanOrEqual(n('7d_click'));
    expect(n('7d_click') + n('1d_view')).toBe(n('value'));
    expect(n('28d_click')).toBe(n('7d_click'));
    expect(n('1d_view')).toBeGreaterThan(0);
    expect(leadAction).not.toHaveProperty('7d_view');
    expect(leadAction).not.toHaveProperty('28d_view');
    expect(row!.actions!.find((a) => a.action_type === 'link_click')).not.toHaveProperty('1d_click');
    const cost = (row as unknown as { cost_per_action_type: Action[] }).cost_per_action_type.find(
      (a) => a.action_type === 'lead',
    )!;
    expect(Number(cost['7d_click'])).toBeCloseTo(Number(row!.spend) / n('7d_click'), 4);
  });
});

describe('refusals naming the parameter', () => {
  it.each([
    [{ breakdowns: ['agee'] }, /breakdowns\[0\] must be one of the following values: ad_extension_domain/],
    [{ breakdowns: ['country'] }, /does not answer breakdowns country: it is in Graph's spec but not simulated/],
    [{ breakdowns: ['age', HOURLY] }, /breakdowns combination age, hourly_stats/],
    [{ action_breakdowns: ['action_device'] }, /does not answer action_breakdowns action_device/],
    [{ action_attribution_windows: ['dda'] }, /does not answer action_attribution_windows dda/],
    [{ action_attribution_windows: ['2d_click'] }, /action_attribution_windows\[0\] must be one of/],
    [{ time_increment: '0' }, /time_increment must be all_days, monthly or a whole number of days from 1 to 90/],
    [{ time_increment: '1', time_ranges: [{ since: '2026-03-01', until: '2026-03-02' }] }, /cannot be combined/],
    [{ time_ranges: [{ since: '2026-03-02', until: '2026-03-01' }] }, /valid time_ranges\[0\] with since <= until/],
    [{ sort: 'spend_descending' }, /parameter sort on insights: it is in Graph's spec but not simulated/],
    [{ colour: 'blue' }, /Unknown parameter colour/],
  ])('refuses %j with code 100', async (params, message) => {
    const { status, body } = await call('GET', `${account}/insights`, params);
    expect(status).toBe(400);
    const error = (body as { error: { code: number; message: string; type: string } }).error;
    expect(error.code).toBe(100);
    expect(error.message).toMatch(message);
  });
});

describe('async insight reports', () => {
  it('starts a report run, reports its progress, and pages its rows once it has completed', async () => {
    const params = { level: 'ad', fields: FIELDS, date_preset: 'last_7d', time_increment: '1' };
    const started = await call('POST', `${account}/insights`, params);
    expect(started.status).toBe(200);
    const runId = (started.body as { report_run_id: string }).report_run_id;
    expect(runId).toMatch(/^\d+$/);
    const expected = await rows(`${account}/insights`, params);

    const early = await call('GET', `${runId}/insights`);
    expect(early.status).toBe(400);
    expect((early.body.error as { message: string }).message).toMatch(/not ready/);
    const first = await call('GET', runId);
    expect(first.body).toMatchObject({ id: runId, async_status: 'Job Running', async_percent_completion: 50 });
    sim.advanceHours(24); // a report holds the numbers of the moment it was started
    const done = await call('GET', runId, { fields: 'async_status,async_percent_completion' });
    expect(done.body).toEqual({ id: runId, async_status: 'Job Completed', async_percent_completion: 100 });
    expect(await rows(`${runId}/insights`, { limit: '7' })).toEqual(expected);
  });

  it('refuses a bad report with the same error as the edge, and an unknown run field', async () => {
    const bad = await call('POST', `${account}/insights`, { breakdowns: ['agee'] });
    expect(bad.status).toBe(400);
    const runId = ((await call('POST', `${account}/insights`, {})).body as { report_run_id: string }).report_run_id;
    const unknown = await call('GET', runId, { fields: 'colour' });
    expect(unknown.status).toBe(400);
    expect((unknown.body.error as { code: number }).code).toBe(100);
  });
});
