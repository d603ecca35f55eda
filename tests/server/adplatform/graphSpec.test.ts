/**
 * Client, simulator and Meta's published Graph API specs (server/adplatform/specs) cannot drift
 * apart silently: every field the client asks for exists on its node with a type the client can
 * read, and the simulator's answers carry only spec fields, with values of the spec's types and
 * enums, paging links that work as given, and Graph's errors for what Graph refuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNT_FIELDS,
  AD_FIELDS,
  ADSET_BUDGET_FIELDS,
  CAMPAIGN_BUDGET_FIELDS,
  CAMPAIGN_FIELDS,
  DAILY_BUDGET_FIELDS,
  INSIGHT_FIELDS,
  STATUS_FIELDS,
  type WireKind,
} from '../../../server/adplatform/graphFields';
import { enumValues, objectMismatch, specFields, type SpecNode } from '../../../server/adplatform/graphSpec';
import { DateTime } from 'luxon';
import { presetPeriod, SIMULATED_INSIGHT_FIELDS } from '../../../server/adplatform/simulator/insights';
import { SIMULATED_FIELDS, type NodeType } from '../../../server/adplatform/simulator/nodes';
import { startSimulator, type Simulator } from '../../../server/adplatform/simulator/index';

const TOKEN = 'spec-token';
const START = '2026-03-02T15:00:00Z'; // a Monday; 10:00 in New York

/** Whether a field of this spec type can be read as the client's wire kind. */
function compatible(kind: WireKind, specType: string): boolean {
  switch (kind) {
    case 'id':
    case 'numeric string':
      return specType === 'string' || specType === 'numeric string';
    case 'string':
      return specType === 'string';
    case 'enum':
      return enumValues(specType) !== undefined;
    case 'datetime':
      return specType === 'datetime';
    case 'integer':
      return specType === 'int' || specType === 'unsigned int';
    case 'action list':
      return specType === 'list<AdsActionStats>';
    case 'issues list':
      return specType === 'list<AdCampaignIssuesInfo>' || specType === 'list<AdgroupIssuesInfo>';
    case 'learning stage':
      return specType === 'AdCampaignLearningStageInfo';
  }
}

describe('the client asks only for spec fields it can read', () => {
  const lists: [string, SpecNode, Readonly<Record<string, WireKind>>][] = [
    ['ACCOUNT_FIELDS', 'AdAccount', ACCOUNT_FIELDS],
    ['CAMPAIGN_FIELDS', 'Campaign', CAMPAIGN_FIELDS],
    ['AD_FIELDS', 'Ad', AD_FIELDS],
    ['STATUS_FIELDS', 'Campaign', STATUS_FIELDS],
    ['STATUS_FIELDS', 'AdSet', STATUS_FIELDS],
    ['STATUS_FIELDS', 'Ad', STATUS_FIELDS],
    ['INSIGHT_FIELDS', 'AdsInsights', INSIGHT_FIELDS],
    ['ADSET_BUDGET_FIELDS', 'AdSet', ADSET_BUDGET_FIELDS],
    ['CAMPAIGN_BUDGET_FIELDS', 'Campaign', CAMPAIGN_BUDGET_FIELDS],
    ['DAILY_BUDGET_FIELDS', 'Campaign', DAILY_BUDGET_FIELDS],
    ['DAILY_BUDGET_FIELDS', 'AdSet', DAILY_BUDGET_FIELDS],
  ];
  for (const [name, node, fields] of lists) {
    it(`${name} against ${node}`, () => {
      const spec = specFields(node);
      const problems = Object.entries(fields).flatMap(([field, kind]) => {
        const type = spec.get(field);
        if (!type) return [`${field} is not a field of ${node}`];
        return compatible(kind, type) ? [] : [`${field}: the client reads a ${kind}, the spec says ${type}`];
      });
      expect(problems).toEqual([]);
    });
  }

  it('reads actions as AdsActionStats {action_type, value} strings', () => {
    const stats = specFields('AdsActionStats');
    expect([stats.get('action_type'), stats.get('value')]).toEqual(['string', 'string']);
  });

  it('tells a compatible type from an incompatible one', () => {
    expect(compatible('integer', 'unsigned int')).toBe(true);
    expect(compatible('integer', 'string')).toBe(false);
    expect(compatible('enum', 'Ad_effective_status')).toBe(true);
    expect(compatible('datetime', 'string')).toBe(false);
  });
});

/** Graph's error body: {error: {message, type, code, error_subcode?, fbtrace_id, …}} and nothing else. */
function expectGraphError(body: Record<string, unknown>, code: number): void {
  expect(Object.keys(body)).toEqual(['error']);
  const error = body.error as Record<string, unknown>;
  const known = [
    'message',
    'type',
    'code',
    'error_subcode',
    'error_user_title',
    'error_user_msg',
    'is_transient',
    'fbtrace_id',
  ];
  expect(Object.keys(error).filter((key) => !known.includes(key))).toEqual([]);
  expect(error).toMatchObject({
    message: expect.any(String),
    type: expect.any(String),
    code,
    fbtrace_id: expect.any(String),
  });
  if ('error_subcode' in error) expect(error.error_subcode).toEqual(expect.any(Number));
}

describe('the simulator answers as the specs say', () => {
  let sim: Simulator;
  let account: string;

  const graph = async (path: string, params: Record<string, string> = {}, method: 'GET' | 'POST' = 'GET') => {
    const query = new URLSearchParams({ ...params, access_token: TOKEN });
    const response =
      method === 'GET'
        ? await fetch(`${sim.url}/v25.0/${path}?${query}`)
        : await fetch(`${sim.url}/v25.0/${path}`, { method, body: query });
    // biome-ignore lint/suspicious/noExplicitAny: assertions read Graph's JSON answers field by field
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  const all = (node: NodeType) => SIMULATED_FIELDS[node].join(',');
  const edgeOf = { Campaign: 'campaigns', AdSet: 'adsets', Ad: 'ads' } as const;

  beforeAll(async () => {
    sim = await startSimulator({
      seed: 11,
      start: START,
      speed: 0,
      accounts: 2,
      campaignsPerAccount: 12,
      adsPerCampaign: 2,
      accessToken: TOKEN,
    });
    account = `act_${sim.world.accounts[0]!.accountId}`;
  });
  afterAll(() => sim.close());

  it('simulates only fields that are in the spec', () => {
    for (const node of ['AdAccount', 'Campaign', 'AdSet', 'Ad'] as const) {
      const spec = specFields(node);
      expect(SIMULATED_FIELDS[node].filter((f) => !spec.has(f))).toEqual([]);
    }
    const insights = specFields('AdsInsights');
    expect(SIMULATED_INSIGHT_FIELDS.filter((f) => !insights.has(f))).toEqual([]);
  });

  it('answers every simulated field with the spec type for ad accounts', async () => {
    const { status, body } = await graph('me/adaccounts', { fields: all('AdAccount') });
    expect(status).toBe(200);
    expect(body.data).toHaveLength(2);
    for (const row of body.data) {
      expect(objectMismatch('AdAccount', row)).toBeUndefined();
      expect(Object.keys(row).sort()).toEqual([...SIMULATED_FIELDS.AdAccount].sort());
    }
    expect(body.data[0]).toMatchObject({ account_status: 1, timezone_offset_hours_utc: -5, currency: 'USD' });
    expect(Number(body.data[0].amount_spent)).toBeGreaterThan(0);
  });

  for (const node of ['Campaign', 'AdSet', 'Ad'] as const) {
    it(`answers every simulated field with the spec type and enum for ${node} lists and reads`, async () => {
      const { status, body } = await graph(`${account}/${edgeOf[node]}`, { fields: all(node), limit: '500' });
      expect(status).toBe(200);
      expect(body.data.length).toBeGreaterThan(5);
      const seen = new Set<string>();
      for (const row of body.data) {
        expect(objectMismatch(node, row)).toBeUndefined();
        for (const key of Object.keys(row)) seen.add(key);
        expect(row.configured_status).toBe(row.status);
        expect(Date.parse(row.created_time.replace(/(\d\d)(\d\d)$/, '$1:$2'))).toBeLessThanOrEqual(Date.parse(START));
      }
      // Fields absent on some objects (a stop time) still appear on others; issues_info only on an object with issues.
      expect([...seen].sort()).toEqual(SIMULATED_FIELDS[node].filter((f) => f !== 'issues_info').sort());

      const one = await graph(body.data[0].id, { fields: all(node) });
      expect(one.status).toBe(200);
      expect(objectMismatch(node, one.body)).toBeUndefined();
      expect(one.body.id).toBe(body.data[0].id);
    });
  }

  it('writes datetimes as Graph does, in the ad account time zone', async () => {
    const { body } = await graph(`${account}/campaigns`, { fields: 'start_time,created_time,updated_time' });
    expect(body.data[0].start_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d-0[45]00$/);
  });

  for (const level of ['ad', 'adset', 'campaign', 'account'] as const) {
    it(`answers insights at ${level} level with spec fields only, metrics as strings`, async () => {
      const { status, body } = await graph(`${account}/insights`, {
        level,
        fields: SIMULATED_INSIGHT_FIELDS.join(','),
        date_preset: 'maximum',
        limit: '500',
      });
      expect(status).toBe(200);
      expect(body.data.length).toBeGreaterThan(0);
      for (const row of body.data) {
        expect(objectMismatch('AdsInsights', row)).toBeUndefined();
        for (const metric of ['spend', 'impressions', 'reach', 'clicks', 'ctr', 'cpm'])
          expect(Number.isFinite(Number(row[metric])), metric).toBe(true);
        expect(Number(row.reach)).toBeLessThanOrEqual(Number(row.impressions));
        expect(row.account_currency).toBe('USD');
      }
      if (level === 'ad') expect(body.data.some((row: Record<string, unknown>) => row.actions)).toBe(true);
      if (level === 'account') expect(body.data[0].campaign_id).toBeUndefined();
    });
  }

  describe('refusals', () => {
    it.each([
      ['Ad', () => `${account}/ads`],
      ['Campaign', () => `${account}/campaigns`],
      ['AdSet', () => `${account}/adsets`],
      ['AdAccount', () => account],
    ])('refuses a field that does not exist on %s with (#100)', async (node, path) => {
      const { status, body } = await graph(path(), { fields: 'id,name,effective_statsu' });
      expect(status).toBe(400);
      expectGraphError(body, 100);
      expect(body.error).toMatchObject({
        code: 100,
        type: 'OAuthException',
        message: `(#100) Tried accessing nonexisting field (effective_statsu) on node type (${node})`,
        fbtrace_id: expect.any(String),
      });
    });

    it('refuses a field that does not exist on insights with (#100)', async () => {
      const { status, body } = await graph(`${account}/insights`, { fields: 'spend,leads' });
      expect(status).toBe(400);
      expectGraphError(body, 100);
      expect(body.error).toMatchObject({
        code: 100,
        message: expect.stringContaining('leads is not valid for fields'),
      });
    });

    it('refuses a spec field it does not simulate, saying so, rather than leaving it out', async () => {
      expect(specFields('Ad').has('ad_review_feedback')).toBe(true);
      const { status, body } = await graph(`${account}/ads`, { fields: 'id,ad_review_feedback' });
      expect(status).toBe(400);
      expectGraphError(body, 100);
      expect(body.error.message).toContain('does not answer field (ad_review_feedback) on node type (Ad)');
    });

    it('answers a missing object with the error body Graph sends', async () => {
      const { status, body } = await graph('404404404', { fields: 'id' });
      expect(status).toBe(400);
      expect(body).toEqual({
        error: {
          message: expect.stringContaining("Object with ID '404404404' does not exist"),
          type: 'GraphMethodException',
          code: 100,
          error_subcode: 33,
          fbtrace_id: expect.any(String),
        },
      });
    });

    it('refuses an effective_status filter value the spec does not list', async () => {
      const { status, body } = await graph(`${account}/campaigns`, { effective_status: '["RUNNING"]' });
      expect(status).toBe(400);
      expectGraphError(body, 100);
      expect(body.error).toMatchObject({ code: 100, message: expect.stringContaining('effective_status[0]') });
    });

    it('refuses a status write outside the spec enum', async () => {
      const campaign = [...sim.world.campaigns.keys()][0]!;
      const { status, body } = await graph(campaign, { status: 'STOPPED' }, 'POST');
      expect(status).toBe(400);
      expectGraphError(body, 100);
      expect(body.error).toMatchObject({
        code: 100,
        message: '(#100) Param status must be one of {ACTIVE, ARCHIVED, DELETED, PAUSED}',
      });
    });
  });

  describe('date presets', () => {
    const presets = enumValues('adaccountinsights_date_preset_enum_param')!;

    it('takes every date_preset the spec lists', async () => {
      expect(presets).toHaveLength(20);
      const statuses = await Promise.all(
        presets.map(async (preset) => [preset, (await graph(`${account}/insights`, { date_preset: preset })).status]),
      );
      expect(statuses.filter(([, status]) => status !== 200)).toEqual([]);
    });

    it.each(['lifetime', 'last_5d', 'LAST_7D'])('refuses %s, which the spec does not list', async (preset) => {
      const { status, body } = await graph(`${account}/insights`, { date_preset: preset });
      expect(status).toBe(400);
      expectGraphError(body, 100);
      expect(body.error).toMatchObject({ code: 100, message: expect.stringContaining('date_preset must be one of') });
    });

    it.each([
      ['today', '2026-03-02', '2026-03-02'],
      ['yesterday', '2026-03-01', '2026-03-01'],
      ['last_7d', '2026-02-23', '2026-03-01'],
      ['this_week_mon_today', '2026-03-02', '2026-03-02'],
      ['this_week_sun_today', '2026-03-01', '2026-03-02'],
      ['last_week_mon_sun', '2026-02-23', '2026-03-01'],
      ['last_week_sun_sat', '2026-02-22', '2026-02-28'],
      ['last_month', '2026-02-01', '2026-02-28'],
      ['this_quarter', '2026-01-01', '2026-03-02'],
    ])('%s covers %s to %s in the ad account time zone', async (preset, since, until) => {
      const { body } = await graph(`${account}/insights`, { date_preset: preset, fields: 'spend' });
      expect(body.data.length).toBeGreaterThan(0);
      for (const row of body.data) expect([row.date_start, row.date_stop]).toEqual([since, until]);
    });

    it('ends "last" periods at midnight and starts "this" periods at their first day', () => {
      const zone = 'America/New_York';
      const day = (ms: number) => DateTime.fromMillis(ms, { zone }).toISO();
      const span = (preset: string) => {
        const period = presetPeriod(preset, Date.parse(START), zone, 0)!;
        return [day(period.from), day(period.to)];
      };
      expect(span('last_year')).toEqual(['2025-01-01T00:00:00.000-05:00', '2026-01-01T00:00:00.000-05:00']);
      expect(span('last_quarter')).toEqual(['2025-10-01T00:00:00.000-04:00', '2026-01-01T00:00:00.000-05:00']);
      expect(span('this_year')).toEqual(['2026-01-01T00:00:00.000-05:00', '2026-03-02T10:00:00.000-05:00']);
      expect(span('last_90d')[1]).toBe('2026-03-02T00:00:00.000-05:00');
      expect(presetPeriod('lifetime', Date.parse(START), zone, 0)).toBeUndefined();
    });
  });

  describe('paging', () => {
    it('gives absolute next and previous links that work as given, with before/after cursors', async () => {
      const first = await graph(`${account}/campaigns`, { fields: 'id,name', limit: '5' });
      const ids: string[] = first.body.data.map((row: { id: string }) => row.id);
      expect(first.body.paging.cursors).toEqual({ before: expect.any(String), after: expect.any(String) });
      expect(first.body.paging.previous).toBeUndefined();
      let next: string | undefined = first.body.paging.next;
      let previous: string | undefined;
      while (next) {
        expect(next).toMatch(new RegExp(`^${sim.url}/v25\\.0/${account}/campaigns\\?`));
        expect(new URL(next).searchParams.get('after')).toBeTruthy();
        const response = await fetch(next);
        expect(response.status).toBe(200);
        const body = (await response.json()) as {
          data: { id: string }[];
          paging: { next?: string; previous?: string };
        };
        ids.push(...body.data.map((row) => row.id));
        previous ??= body.paging.previous;
        next = body.paging.next;
      }
      const expected = [...sim.world.campaigns.values()].filter((c) => `act_${c.accountId}` === account);
      expect(ids).toHaveLength(expected.length);
      expect(new Set(ids)).toEqual(new Set(expected.map((c) => c.id)));

      const back = (await (await fetch(previous!)).json()) as { data: { id: string }[] };
      expect(back.data.map((row) => row.id)).toEqual(ids.slice(0, 5));
    });
  });

  describe('statuses', () => {
    it('shows a status write at once, also on a campaign that has not started yet', async () => {
      const later = [...sim.world.campaigns.values()].find(
        (c) => `act_${c.accountId}` === account && c.startTime > Date.parse(START),
      );
      expect(later).toBeDefined();
      const { body: before } = await graph(later!.id, { fields: 'status,effective_status,start_time' });
      expect(before.status).toBe('ACTIVE');
      expect((await graph(later!.id, { status: 'PAUSED' }, 'POST')).body).toEqual({ success: true });
      const { body: after } = await graph(later!.id, {
        fields: 'status,configured_status,effective_status,updated_time',
      });
      expect(after).toMatchObject({
        status: 'PAUSED',
        configured_status: 'PAUSED',
        effective_status: 'PAUSED',
        updated_time: '2026-03-02T10:00:00-0500',
      });
      await graph(later!.id, { status: 'ACTIVE' }, 'POST');
    });

    it('passes a paused campaign or ad set down as CAMPAIGN_PAUSED / ADSET_PAUSED', async () => {
      const campaign = [...sim.world.campaigns.values()].find(
        (c) => `act_${c.accountId}` === account && sim.inspect(c.id).status === 'ACTIVE',
      )!;
      const adset = [...sim.world.adsets.values()].find((s) => s.campaignId === campaign.id)!;
      const ads = sim.world.adsOf(campaign.id).filter((ad) => sim.inspect(ad.id).status === 'ACTIVE');
      expect(ads.length).toBeGreaterThan(0);
      const effective = async (id: string) => (await graph(id, { fields: 'status,effective_status' })).body;

      await graph(adset.id, { status: 'PAUSED' }, 'POST');
      expect(await effective(adset.id)).toMatchObject({ status: 'PAUSED', effective_status: 'PAUSED' });
      expect(await effective(ads[0]!.id)).toMatchObject({ status: 'ACTIVE', effective_status: 'ADSET_PAUSED' });

      await graph(campaign.id, { status: 'PAUSED' }, 'POST');
      expect(await effective(adset.id)).toMatchObject({ status: 'PAUSED', effective_status: 'CAMPAIGN_PAUSED' });
      expect(await effective(ads[0]!.id)).toMatchObject({ status: 'ACTIVE', effective_status: 'CAMPAIGN_PAUSED' });
      const filtered = await graph(`${account}/ads`, { effective_status: '["CAMPAIGN_PAUSED"]', limit: '500' });
      expect(filtered.body.data.map((row: { id: string }) => row.id)).toEqual(
        expect.arrayContaining(ads.map((ad) => ad.id)),
      );

      await graph(campaign.id, { status: 'ACTIVE' }, 'POST');
      await graph(adset.id, { status: 'ACTIVE' }, 'POST');
      expect(await effective(ads[0]!.id)).toMatchObject({ status: 'ACTIVE', effective_status: 'ACTIVE' });
    });

    it('lists archived and deleted ads only when asked for them by effective_status', async () => {
      const campaign = [...sim.world.campaigns.values()].find(
        (c) => c.accountId === sim.world.accounts[1]!.accountId && sim.world.adsOf(c.id).length === 2,
      )!;
      const [archived, deleted] = sim.world.adsOf(campaign.id);
      await graph(archived!.id, { status: 'ARCHIVED' }, 'POST');
      await graph(deleted!.id, { status: 'DELETED' }, 'POST');
      const ids = async (params: Record<string, string>) =>
        (await graph(`act_${archived!.accountId}/ads`, { fields: 'status,effective_status', limit: '500', ...params }))
          .body.data;
      const listed = (await ids({})).map((row: { id: string }) => row.id);
      expect(listed).not.toContain(archived!.id);
      expect(listed).not.toContain(deleted!.id);
      expect(await ids({ effective_status: '["ARCHIVED","DELETED"]' })).toEqual([
        { id: archived!.id, status: 'ARCHIVED', effective_status: 'ARCHIVED' },
        { id: deleted!.id, status: 'DELETED', effective_status: 'DELETED' },
      ]);
    });
  });
});
