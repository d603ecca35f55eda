/**
 * The Graph API subset the product uses, answered from the simulated world: ad accounts, campaigns,
 * ad sets, ads, insights (levels, date presets, time ranges, filtering), object reads, status
 * writes, cursor paging and the error bodies. HTTP, batching and faults live in http.ts.
 */
import { DateTime } from 'luxon';
import type { SimClock } from './clock';
import { add, adTotals, graphMetrics, statusAt, ZERO, type Totals } from './delivery';
import type { SimAccount, SimAd, SimAdSet, SimCampaign, SimStatus, World } from './world';

export type Params = Record<string, string>;

export interface GraphAnswer {
  status: number;
  body: unknown;
  /** The ad account the call touched (for the usage headers). */
  accountId?: string;
  /** A write took effect. */
  wrote?: boolean;
}

export interface WriteRecord {
  id: string;
  status: string;
  at: string;
}

export interface GraphContext {
  /** Base for absolute `paging.next` links, e.g. http://127.0.0.1:8090/v21.0 */
  linkBase: string;
}

const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 5000;
let traceCounter = 0;

export function errorAnswer(
  status: number,
  code: number,
  message: string,
  extra: Record<string, unknown> = {},
): GraphAnswer {
  traceCounter += 1;
  return {
    status,
    body: {
      error: {
        message,
        type: code === 190 ? 'OAuthException' : 'OAuthException',
        code,
        ...extra,
        fbtrace_id: `Sim${traceCounter.toString(36).padStart(8, '0')}`,
      },
    },
  };
}

const notFound = (id: string) =>
  errorAnswer(
    400,
    100,
    `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
    { error_subcode: 33 },
  );

function pick(
  object: Record<string, unknown>,
  fields: string | undefined,
  defaults: string[],
): Record<string, unknown> {
  const wanted = fields
    ? fields
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean)
    : defaults;
  const out: Record<string, unknown> = {};
  for (const field of ['id', ...wanted]) if (object[field] !== undefined) out[field] = object[field];
  return out;
}

const encodeCursor = (offset: number) => Buffer.from(`offset:${offset}`).toString('base64url');
function decodeCursor(cursor: string | undefined): number {
  if (!cursor) return 0;
  const match = /^offset:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString());
  return match ? Number(match[1]) : 0;
}

export class GraphHandler {
  readonly writes: WriteRecord[] = [];

  constructor(
    readonly world: World,
    readonly clock: SimClock,
  ) {}

  handle(method: string, path: string, params: Params, context: GraphContext): GraphAnswer {
    const parts = path.split('/').filter(Boolean);
    if (method === 'GET' && parts[0] === 'me' && parts[1] === 'adaccounts' && parts.length === 2) {
      return this.page(
        this.world.accounts.map((a) => this.accountObject(a)),
        params,
        path,
        context,
        ['id', 'account_id'],
      );
    }
    const [head, edge, ...rest] = parts;
    if (!head || rest.length) return errorAnswer(400, 100, 'Unknown path components: /' + parts.slice(2).join('/'));

    if (head.startsWith('act_')) {
      const account = this.world.account(head);
      if (!account) return notFound(head);
      if (!edge)
        return method === 'GET'
          ? {
              status: 200,
              body: pick(this.accountObject(account), params.fields, ['id', 'account_id']),
              accountId: account.accountId,
            }
          : errorAnswer(400, 100, 'Unsupported post request.');
      if (method !== 'GET') return errorAnswer(400, 100, `Unsupported post request on edge ${edge}`);
      const answer = this.accountEdge(account, edge, params, path, context);
      return { ...answer, accountId: account.accountId };
    }

    const object = this.findObject(head);
    if (!object) return notFound(head);
    if (!edge) {
      if (method === 'POST') return { ...this.write(object, params), accountId: object.accountId };
      return {
        status: 200,
        body: pick(this.describe(object), params.fields, ['id', 'name']),
        accountId: object.accountId,
      };
    }
    if (edge === 'insights' && method === 'GET') {
      const account = this.world.account(object.accountId)!;
      const answer = this.insights(
        account,
        params,
        path,
        context,
        (ad) => ad.id === head || ad.adsetId === head || ad.campaignId === head,
        object.kind,
      );
      return { ...answer, accountId: object.accountId };
    }
    return errorAnswer(400, 100, `Unknown path components: /${edge}`);
  }

  // ---- objects ----------------------------------------------------------------------------------

  private accountObject(a: SimAccount): Record<string, unknown> {
    return {
      id: `act_${a.accountId}`,
      account_id: a.accountId,
      name: a.name,
      timezone_name: a.timezone,
      currency: a.currency,
      account_status: 1,
    };
  }

  private findObject(
    id: string,
  ): { kind: 'campaign' | 'adset' | 'ad'; accountId: string; value: SimCampaign | SimAdSet | SimAd } | undefined {
    const campaign = this.world.campaigns.get(id);
    if (campaign) return { kind: 'campaign', accountId: campaign.accountId, value: campaign };
    const adset = this.world.adsets.get(id);
    if (adset) return { kind: 'adset', accountId: adset.accountId, value: adset };
    const ad = this.world.ads.get(id);
    if (ad && !ad.deleted) return { kind: 'ad', accountId: ad.accountId, value: ad };
    return undefined;
  }

  private describe(object: NonNullable<ReturnType<GraphHandler['findObject']>>): Record<string, unknown> {
    if (object.kind === 'campaign') return this.campaignObject(object.value as SimCampaign);
    if (object.kind === 'adset') return this.adsetObject(object.value as SimAdSet);
    return this.adObject(object.value as SimAd);
  }

  private iso(ms: number, timezone: string): string {
    return DateTime.fromMillis(ms, { zone: timezone }).toFormat("yyyy-MM-dd'T'HH:mm:ssZZZ");
  }

  private campaignObject(c: SimCampaign): Record<string, unknown> {
    const account = this.world.account(c.accountId)!;
    const status = statusAt(c.statusLog, this.clock.now());
    return {
      id: c.id,
      account_id: c.accountId,
      name: c.name,
      status,
      effective_status: status,
      objective: 'OUTCOME_LEADS',
      start_time: this.iso(c.startTime, account.timezone),
      stop_time: c.stopTime === undefined ? undefined : this.iso(c.stopTime, account.timezone),
      daily_budget: String(c.dailyBudgetCents),
    };
  }

  private adsetObject(s: SimAdSet): Record<string, unknown> {
    const now = this.clock.now();
    const status = statusAt(s.statusLog, now);
    const campaign = this.world.campaigns.get(s.campaignId)!;
    const effective = statusAt(campaign.statusLog, now) === 'PAUSED' ? 'CAMPAIGN_PAUSED' : status;
    return {
      id: s.id,
      account_id: s.accountId,
      campaign_id: s.campaignId,
      name: s.name,
      status,
      effective_status: effective,
    };
  }

  private adObject(ad: SimAd): Record<string, unknown> {
    const now = this.clock.now();
    const status = statusAt(ad.statusLog, now);
    const campaign = this.world.campaigns.get(ad.campaignId)!;
    const adset = this.world.adsets.get(ad.adsetId)!;
    let effective: string = status;
    if (statusAt(campaign.statusLog, now) === 'PAUSED') effective = 'CAMPAIGN_PAUSED';
    else if (statusAt(adset.statusLog, now) === 'PAUSED') effective = 'ADSET_PAUSED';
    return {
      id: ad.id,
      account_id: ad.accountId,
      campaign_id: ad.campaignId,
      adset_id: ad.adsetId,
      name: ad.name,
      status,
      effective_status: effective,
    };
  }

  private write(object: NonNullable<ReturnType<GraphHandler['findObject']>>, params: Params): GraphAnswer {
    const status = params.status;
    if (status === 'DELETED' && object.kind === 'ad') {
      (object.value as SimAd).deleted = true;
      this.writes.push({ id: object.value.id, status, at: new Date(this.clock.now()).toISOString() });
      return { status: 200, body: { success: true }, wrote: true };
    }
    if (status !== 'ACTIVE' && status !== 'PAUSED') {
      return errorAnswer(400, 100, '(#100) Param status must be one of {ACTIVE, PAUSED, DELETED, ARCHIVED}', {
        error_subcode: 1815154,
      });
    }
    const log = object.value.statusLog;
    const at = Math.max(this.clock.now(), log[log.length - 1]!.at);
    log.push({ at, status: status as SimStatus });
    this.writes.push({ id: object.value.id, status, at: new Date(at).toISOString() });
    return { status: 200, body: { success: true }, wrote: true };
  }

  // ---- account edges --------------------------------------------------------------------------

  private accountEdge(
    account: SimAccount,
    edge: string,
    params: Params,
    path: string,
    context: GraphContext,
  ): GraphAnswer {
    const mine = <T extends { accountId: string }>(items: Iterable<T>) =>
      [...items].filter((item) => item.accountId === account.accountId);
    if (edge === 'campaigns') {
      const rows = mine(this.world.campaigns.values()).map((c) => this.campaignObject(c));
      return this.page(this.filterStatus(rows, params), params, path, context, ['id']);
    }
    if (edge === 'adsets') {
      const rows = mine(this.world.adsets.values()).map((s) => this.adsetObject(s));
      return this.page(this.filterStatus(rows, params), params, path, context, ['id']);
    }
    if (edge === 'ads') {
      const rows = mine(this.world.ads.values())
        .filter((ad) => !ad.deleted)
        .map((ad) => this.adObject(ad));
      return this.page(this.filterStatus(rows, params), params, path, context, ['id']);
    }
    if (edge === 'insights') return this.insights(account, params, path, context, () => true, 'account');
    return errorAnswer(400, 100, `Tried accessing nonexisting field (${edge}) on node type (AdAccount)`);
  }

  /** `effective_status=["ACTIVE","PAUSED"]` as the Graph API takes it. */
  private filterStatus(rows: Record<string, unknown>[], params: Params): Record<string, unknown>[] {
    if (!params.effective_status) return rows;
    let wanted: string[];
    try {
      wanted = JSON.parse(params.effective_status) as string[];
    } catch {
      wanted = params.effective_status.split(',');
    }
    return rows.filter((row) => wanted.includes(String(row.effective_status)));
  }

  private page(
    rows: Record<string, unknown>[],
    params: Params,
    path: string,
    context: GraphContext,
    defaults: string[],
  ): GraphAnswer {
    const limit = Math.min(Math.max(Number(params.limit) || DEFAULT_LIMIT, 1), MAX_LIMIT);
    const offset = decodeCursor(params.after);
    const slice = rows.slice(offset, offset + limit).map((row) => pick(row, params.fields, defaults));
    const body: Record<string, unknown> = { data: slice };
    if (slice.length) {
      const paging: Record<string, unknown> = {
        cursors: { before: encodeCursor(offset), after: encodeCursor(offset + slice.length) },
      };
      if (offset + slice.length < rows.length) {
        const next = new URLSearchParams({
          ...params,
          limit: String(limit),
          after: encodeCursor(offset + slice.length),
        });
        next.delete('access_token');
        paging.next = `${context.linkBase}/${path}?${next}`;
      }
      body.paging = paging;
    }
    return { status: 200, body };
  }

  // ---- insights -------------------------------------------------------------------------------

  private period(account: SimAccount, params: Params, firstStart: number): { from: number; to: number } | GraphAnswer {
    const now = this.clock.now();
    const today = DateTime.fromMillis(now, { zone: account.timezone }).startOf('day');
    if (params.time_range) {
      let range: { since?: string; until?: string };
      try {
        range = JSON.parse(params.time_range) as { since?: string; until?: string };
      } catch {
        return errorAnswer(400, 100, '(#100) time_range must be a JSON object with since and until');
      }
      const since = DateTime.fromISO(range.since ?? '', { zone: account.timezone });
      const until = DateTime.fromISO(range.until ?? '', { zone: account.timezone });
      if (!since.isValid || !until.isValid || until < since)
        return errorAnswer(400, 100, '(#100) Must provide a valid time_range with since <= until');
      return { from: since.toMillis(), to: Math.min(now, until.plus({ days: 1 }).toMillis()) };
    }
    const preset = params.date_preset ?? 'last_30d';
    if (preset === 'maximum' || preset === 'lifetime') return { from: Math.min(firstStart, now), to: now };
    if (preset === 'today') return { from: today.toMillis(), to: now };
    if (preset === 'yesterday') return { from: today.minus({ days: 1 }).toMillis(), to: today.toMillis() };
    if (preset === 'this_month') return { from: today.startOf('month').toMillis(), to: now };
    const lastN = /^last_(\d+)d$/.exec(preset);
    if (lastN) return { from: today.minus({ days: Number(lastN[1]) }).toMillis(), to: today.toMillis() };
    return errorAnswer(
      400,
      100,
      `(#100) date_preset must be one of the following values: today, yesterday, this_month, last_3d, last_7d, last_14d, last_28d, last_30d, last_90d, maximum`,
    );
  }

  private insights(
    account: SimAccount,
    params: Params,
    path: string,
    context: GraphContext,
    scope: (ad: SimAd) => boolean,
    defaultLevel: string,
  ): GraphAnswer {
    const level = params.level ?? defaultLevel;
    if (!['account', 'campaign', 'adset', 'ad'].includes(level))
      return errorAnswer(400, 100, '(#100) level must be one of: ad, adset, campaign, account');
    const filter = this.insightFilter(params.filtering);
    if ('status' in filter) return filter;

    const ads = [...this.world.ads.values()].filter(
      (ad) => ad.accountId === account.accountId && !ad.deleted && scope(ad) && filter.test(ad),
    );
    const firstStart = Math.min(
      ...ads.map((ad) => this.world.campaigns.get(ad.campaignId)!.startTime),
      this.clock.now(),
    );
    const period = this.period(account, params, firstStart);
    if ('status' in period) return period;

    const groups = new Map<string, { ad: SimAd; totals: Totals }>();
    for (const ad of ads) {
      const campaign = this.world.campaigns.get(ad.campaignId)!;
      const adset = this.world.adsets.get(ad.adsetId)!;
      const totals = adTotals(ad, adset, campaign, period.from, period.to);
      const key =
        level === 'ad'
          ? ad.id
          : level === 'adset'
            ? ad.adsetId
            : level === 'campaign'
              ? ad.campaignId
              : account.accountId;
      const group = groups.get(key);
      groups.set(key, { ad: group?.ad ?? ad, totals: add(group?.totals ?? ZERO, totals) });
    }

    const dateOf = (ms: number) => DateTime.fromMillis(ms, { zone: account.timezone }).toISODate()!;
    const rows = [...groups.values()]
      .filter(({ totals }) => totals.impressions > 0)
      .map(({ ad, totals }) => {
        const campaign = this.world.campaigns.get(ad.campaignId)!;
        const adset = this.world.adsets.get(ad.adsetId)!;
        const ids: Record<string, unknown> = { account_id: account.accountId, account_name: account.name };
        if (level !== 'account') Object.assign(ids, { campaign_id: campaign.id, campaign_name: campaign.name });
        if (level === 'adset' || level === 'ad') Object.assign(ids, { adset_id: adset.id, adset_name: adset.name });
        if (level === 'ad') Object.assign(ids, { ad_id: ad.id, ad_name: ad.name });
        return { ...ids, ...graphMetrics(totals) };
      });
    const fields = params.fields ? `${params.fields},date_start,date_stop` : 'spend,date_start,date_stop';
    const dated = rows.map((row) => ({
      ...row,
      date_start: dateOf(period.from),
      date_stop: dateOf(Math.max(period.from, period.to - 1)),
    }));
    const answer = this.page(dated, { ...params, fields }, path, context, []);
    // Insight rows have no id of their own.
    for (const row of (answer.body as { data: Record<string, unknown>[] }).data) delete row.id;
    return answer;
  }

  private insightFilter(raw: string | undefined): { test: (ad: SimAd) => boolean } | GraphAnswer {
    if (!raw) return { test: () => true };
    let items: { field?: string; operator?: string; value?: unknown }[];
    try {
      items = JSON.parse(raw) as typeof items;
      if (!Array.isArray(items)) throw new Error('not a list');
    } catch {
      return errorAnswer(400, 100, '(#100) filtering must be an array of {field, operator, value}');
    }
    const tests: ((ad: SimAd) => boolean)[] = [];
    for (const item of items) {
      const key = { 'campaign.id': 'campaignId', 'adset.id': 'adsetId', 'ad.id': 'id' }[item.field ?? ''] as
        | 'campaignId'
        | 'adsetId'
        | 'id'
        | undefined;
      if (!key) return errorAnswer(400, 100, `(#100) Filtering field ${item.field} is invalid`);
      const values = (Array.isArray(item.value) ? item.value : [item.value]).map(String);
      if (item.operator === 'IN' || item.operator === 'EQUAL') tests.push((ad) => values.includes(ad[key]));
      else if (item.operator === 'NOT_IN' || item.operator === 'NOT_EQUAL')
        tests.push((ad) => !values.includes(ad[key]));
      else return errorAnswer(400, 100, `(#100) Filtering operator ${item.operator} is invalid`);
    }
    return { test: (ad) => tests.every((t) => t(ad)) };
  }
}
