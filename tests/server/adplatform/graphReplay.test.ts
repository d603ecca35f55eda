/**
 * The Graph client fed Graph's real answers, replayed by a local HTTP server: bodies copied from
 * Meta's docs and public bug reports (cited at each), so the client is held to what Graph sends,
 * not to what our simulator sends. Waits go through an injected sleep that moves a fake clock.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { GraphRateLimitError } from '../../../server/adplatform/errors';
import { GraphClient, type GraphClientEvent } from '../../../server/adplatform/graphClient';
import { insightMetrics, leadCount } from '../../../server/adplatform/insightValues';
import type { InsightRow } from '../../../server/adplatform/types';
import { ACCOUNT_LIMIT_80004, TOO_MUCH_1487534, TOO_MUCH_500, USER_LIMIT_17 } from './graphBodies';

interface Seen {
  method: string;
  path: string;
  params: Record<string, string>;
}
interface Reply {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** A Graph stand-in over real HTTP: each request is recorded and answered by `answer`. */
async function replay(answer: (request: Seen, index: number) => Reply) {
  const seen: Seen[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://replay');
    const params = {
      ...Object.fromEntries(url.searchParams),
      ...Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString())),
    };
    delete params.access_token;
    const request = { method: req.method ?? 'GET', path: url.pathname.replace(/^\/v\d+\.\d+\//, ''), params };
    seen.push(request);
    const reply = answer(request, seen.length - 1);
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
    res.end(JSON.stringify(reply.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}
const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

function clientFor(url: string) {
  let now = Date.parse('2026-03-02T15:00:00Z');
  const sleeps: number[] = [];
  const events: GraphClientEvent[] = [];
  const client = new GraphClient({
    baseUrl: url,
    apiVersion: 'v25.0',
    accessToken: 'replay-token',
    random: () => 0.5,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
    usage: { now: () => now },
    onEvent: (event) => events.push(event),
  });
  return { client, sleeps, events };
}

const row = (ad: string, spend: string, leads: string, extra: Partial<InsightRow> = {}): InsightRow => ({
  campaign_id: '11',
  campaign_name: 'EDM - Campaign',
  ad_id: ad,
  ad_name: `Ad ${ad}`,
  spend,
  impressions: '1000',
  clicks: '20',
  inline_link_clicks: '10',
  ctr: '2',
  cpc: String(Number(spend) / 20),
  actions: [{ action_type: 'lead', value: leads }],
  cost_per_action_type: [{ action_type: 'lead', value: String(Number(spend) / Number(leads)) }],
  ...extra,
});
const page = (data: InsightRow[], after?: string) => ({
  body: {
    data,
    paging: {
      cursors: { before: 'b', after: after ?? 'end' },
      ...(after ? { next: `https://graph/next?after=${after}` } : {}),
    },
  },
});

describe('the client and "Please reduce the amount of data"', () => {
  it('asks for the same page again with half the page size, never the same call (HTTP 500, code 1)', async () => {
    const graph = await replay((request, index) => {
      if (index === 0) return TOO_MUCH_500;
      return request.params.after ? page([row('2', '5.00', '1')]) : page([row('1', '10.00', '2')], 'c1');
    });
    const { client, sleeps, events } = clientFor(graph.url);
    const rows = await client.getInsights('act_1', { level: 'ad' });
    expect(rows.map((r) => r.ad_id)).toEqual(['1', '2']);
    expect(graph.seen.map((r) => [r.params.limit, r.params.after])).toEqual([
      ['500', undefined],
      ['250', undefined],
      ['250', 'c1'],
    ]);
    expect(sleeps).toEqual([]);
    expect(events).toContainEqual({ type: 'smaller-page', path: 'act_1/insights', limit: 250 });
  });

  it('reads fewer days when no page is small enough, and adds the halves back together (code 100, 1487534)', async () => {
    const days = (range: string) => {
      const { since, until } = JSON.parse(range) as { since: string; until: string };
      return (Date.parse(until) - Date.parse(since)) / 86_400_000 + 1;
    };
    const graph = await replay((request) => {
      if (days(request.params.time_range!) > 5) return TOO_MUCH_1487534;
      const first = request.params.time_range!.includes('03-01');
      return page([row('1', first ? '10.00' : '30.00', first ? '1' : '3')]);
    });
    const { client } = clientFor(graph.url);
    const rows = await client.getInsights('act_1', {
      level: 'ad',
      timeRange: { since: '2026-03-01', until: '2026-03-10' },
    });
    expect(
      graph.seen
        .filter((r) => r.params.time_range!.includes('"2026-03-10"') && r.params.time_range!.includes('"2026-03-01"'))
        .map((r) => r.params.limit),
    ).toEqual(['500', '250', '125', '62', '31', '25']);
    expect(graph.seen.slice(-2).map((r) => JSON.parse(r.params.time_range!))).toEqual([
      { since: '2026-03-01', until: '2026-03-05' },
      { since: '2026-03-06', until: '2026-03-10' },
    ]);
    expect(rows).toHaveLength(1);
    const whole = insightMetrics(rows[0]);
    expect(whole).toMatchObject({ spend: 40, impressions: 2000, clicks: 40, leads: 4, cpl: 10, ctr: 2, cpc: 1 });
    expect(rows[0]!.cost_per_action_type).toEqual([{ action_type: 'lead', value: '10' }]);
  });

  it('moves a call that is too much even for one day to an async report, polls it and reads its rows', async () => {
    let polls = 0;
    const graph = await replay((request) => {
      if (request.method === 'GET' && request.path === 'act_1/insights') return TOO_MUCH_500;
      // Meta, "Asynchronous Requests" (insights/async): POST answers a report_run_id, the AdReportRun reports its status.
      if (request.method === 'POST') return { body: { report_run_id: '6023920149050' } };
      if (request.path === '6023920149050') {
        polls += 1;
        return {
          body:
            polls === 1
              ? { id: '6023920149050', async_status: 'Job Running', async_percent_completion: 40 }
              : { id: '6023920149050', async_status: 'Job Completed', async_percent_completion: 100 },
        };
      }
      return page([row('1', '12.00', '3')]);
    });
    const { client, sleeps, events } = clientFor(graph.url);
    const rows = await client.getInsights('act_1', {
      level: 'ad',
      timeRange: { since: '2026-03-01', until: '2026-03-01' },
    });
    expect(rows.map((r) => r.spend)).toEqual(['12.00']);
    const post = graph.seen.find((r) => r.method === 'POST')!;
    expect(post.path).toBe('act_1/insights');
    expect(post.params).toMatchObject({ level: 'ad', time_range: '{"since":"2026-03-01","until":"2026-03-01"}' });
    expect(post.params.limit).toBeUndefined();
    expect(graph.seen.at(-1)!.path).toBe('6023920149050/insights');
    expect(sleeps).toEqual([1000]);
    expect(events).toContainEqual({ type: 'async-report', path: 'act_1/insights', reportRunId: '6023920149050' });
  });
});

describe('the client and rate limits without a usage header', () => {
  it('waits a minute after a refusal that says nothing of its length, then calls again once', async () => {
    const graph = await replay((_request, index) => (index === 0 ? USER_LIMIT_17 : page([row('1', '1.00', '1')])));
    const { client, sleeps } = clientFor(graph.url);
    await client.getInsights('act_1', { level: 'ad' });
    expect(sleeps).toEqual([60_000]);
    expect(graph.seen).toHaveLength(2);
  });

  it('backs off 1, 2, 4 minutes and then gives up with a typed error for the caller to reschedule (80004)', async () => {
    const graph = await replay(() => ACCOUNT_LIMIT_80004);
    const { client, sleeps } = clientFor(graph.url);
    const error = await client.listCampaigns('act_1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphRateLimitError);
    expect(error).toMatchObject({ code: 80004, subcode: 2446079, usageReported: false });
    expect(sleeps).toEqual([60_000, 120_000, 240_000]);
    expect(graph.seen).toHaveLength(4);
  });

  it('waits as long as the usage header says when it comes with the refusal', async () => {
    // Meta, "Rate Limiting": X-Business-Use-Case-Usage with estimated_time_to_regain_access in minutes.
    const usage = JSON.stringify({
      '1': [
        {
          type: 'ads_management',
          call_count: 100,
          total_cputime: 20,
          total_time: 20,
          estimated_time_to_regain_access: 3,
        },
      ],
    });
    const graph = await replay((_request, index) =>
      index === 0
        ? { ...ACCOUNT_LIMIT_80004, headers: { 'x-business-use-case-usage': usage } }
        : { body: { data: [] } },
    );
    const { client, sleeps } = clientFor(graph.url);
    await client.listCampaigns('act_1');
    expect(sleeps).toEqual([180_000]);
  });
});

describe('counting leads as Graph reports them', () => {
  it('counts a lead reported only as onsite_web_lead', () => {
    expect(leadCount([{ action_type: 'onsite_web_lead', value: '4' }])).toBe(4);
    expect(
      insightMetrics(row('1', '20', '0', { actions: [{ action_type: 'onsite_web_lead', value: '4' }] })),
    ).toMatchObject({
      leads: 4,
      websiteLeads: 4,
      cpl: 5,
    });
  });

  it('never adds lead to its parts, nor the pixel count to onsite_web_lead', () => {
    const actions = [
      { action_type: 'lead', value: '7' },
      { action_type: 'onsite_conversion.lead_grouped', value: '4' },
      { action_type: 'offsite_conversion.fb_pixel_lead', value: '3' },
      { action_type: 'onsite_web_lead', value: '3' },
    ];
    expect(leadCount(actions)).toBe(7);
    expect(leadCount(actions.slice(1))).toBe(7);
    expect(insightMetrics(row('1', '21', '0', { actions: actions.slice(1) })).websiteLeads).toBe(3);
  });
});
