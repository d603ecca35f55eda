/**
 * List edges as Graph answers them: /me/adaccounts; /act_X/campaigns, /adsets, /ads;
 * /{campaign}/adsets, /ads; /{adset}/ads; and /insights of any of them (insights.ts). A list
 * takes `fields` (expansions included), cursor paging, `effective_status`, `filtering`,
 * `updated_since` where the spec lists it, and `summary=true` (total_count). Without an
 * effective_status filter archived and deleted objects are left out, as on Graph.
 */
import { edgeParams, edgeParamType, enumValues, type SpecNode } from '../graphSpec';
import { errorAnswer, page, type GraphAnswer, type Params } from './answers';
import { parseFields } from './fieldTree';
import { itemFilter, type FilterFields } from './filtering';
import { insights } from './insights';
import { effectiveStatus, updatedAt, type NodeType } from './nodes';
import { LIST_PARAMS, refuseParams } from './params';
import { renderer, type Parent, type RenderContext } from './render';
import type { SimAd, SimAdSet, SimCampaign } from './world';

type Item = SimCampaign | SimAdSet | SimAd;
type ItemKind = 'Campaign' | 'AdSet' | 'Ad';

const LIST_EDGES: Record<Parent['kind'], Partial<Record<string, ItemKind | 'AdAccount'>>> = {
  User: { adaccounts: 'AdAccount' },
  AdAccount: { campaigns: 'Campaign', adsets: 'AdSet', ads: 'Ad' },
  Campaign: { adsets: 'AdSet', ads: 'Ad' },
  AdSet: { ads: 'Ad' },
  Ad: {},
};
const HIDDEN_STATUSES = ['ARCHIVED', 'DELETED'];
const DEFAULT_LIST_FIELDS = [{ name: 'id', modifiers: {} }];

/** The Graph id a parent is addressed by in a path. */
export function parentPath(parent: Parent): string {
  if (parent.kind === 'User') return 'me';
  if (parent.kind === 'AdAccount') return `act_${parent.node.accountId}`;
  return parent.node.id;
}

export function listEdge(parent: Parent, edge: string, params: Params, context: RenderContext): GraphAnswer {
  const path = `${parentPath(parent)}/${edge}`;
  if (edge === 'insights' && parent.kind !== 'User') return insightsOf(parent, params, path, context);
  const kind = LIST_EDGES[parent.kind][edge];
  if (!kind) return unknownEdge(parent.kind, edge);
  const spec = parent.kind === 'User' ? [] : (edgeParams(parent.kind, 'GET', edge) ?? []);
  const simulated = [...LIST_PARAMS, ...spec.filter((name) => ['effective_status', 'updated_since'].includes(name))];
  const refusal = refuseParams(params, `edge /${edge} of node type ${parent.kind}`, simulated, spec);
  if (refusal) return refusal;
  const fields = params.fields === undefined ? DEFAULT_LIST_FIELDS : parseFields(params.fields);
  if ('error' in fields) return errorAnswer(400, 100, `(#100) Syntax error in param fields: ${fields.error}`);

  if (kind === 'AdAccount') {
    if (params.filtering !== undefined)
      return errorAnswer(400, 100, '(#100) The simulator does not filter /me/adaccounts');
    const reaches = context.graph.reaches ?? (() => true);
    const accounts = context.world.accounts.filter((account) => reaches(account.accountId));
    const summary = summaryOf(params, accounts.length);
    if (summary && 'status' in summary) return summary;
    return withSummary(page(accounts, renderer('AdAccount', fields, context), params, path, context.graph), summary);
  }
  const wanted = wantedStatuses(parent.kind as SpecNode, kind, edge, params);
  if (!Array.isArray(wanted)) return wanted;
  const filter = itemFilter(params.filtering, FILTER_FIELDS(context)[kind]);
  if (typeof filter !== 'function') return filter;
  const since = params.updated_since === undefined ? -Infinity : Number(params.updated_since) * 1000;
  if (Number.isNaN(since)) return errorAnswer(400, 100, '(#100) Param updated_since must be a Unix time in seconds');
  // Without a filter Graph lists everything but archived and deleted objects.
  const listed = (status: string) => (wanted.length ? wanted.includes(status) : !HIDDEN_STATUSES.includes(status));
  const rows = itemsOf(parent, kind, context).filter(
    (item) =>
      listed(effectiveStatus(context.world, item, context.now)) &&
      updatedAt(item, context.now) >= since &&
      filter(item),
  );
  const summary = summaryOf(params, rows.length);
  if (summary && 'status' in summary) return summary;
  const render = renderer(kind, fields, context) as (item: Item) => Record<string, unknown>;
  return withSummary(page(rows, render, params, path, context.graph), summary);
}

function insightsOf(parent: Exclude<Parent, { kind: 'User' }>, params: Params, path: string, context: RenderContext) {
  const accountId = parent.kind === 'AdAccount' ? parent.node.accountId : parent.node.accountId;
  const account = context.world.account(accountId)!;
  if (parent.kind === 'AdAccount')
    return insights(context.world, context.now, account, params, path, context.graph, () => true, 'account');
  const id = parent.node.id;
  const inScope = (ad: SimAd) => ad.id === id || ad.adsetId === id || ad.campaignId === id;
  const level = { Campaign: 'campaign', AdSet: 'adset', Ad: 'ad' }[parent.kind];
  return insights(context.world, context.now, account, params, path, context.graph, inScope, level);
}

function itemsOf(parent: Parent, kind: ItemKind, context: RenderContext): Item[] {
  const world = context.world;
  const all: Item[] =
    kind === 'Campaign'
      ? [...world.campaigns.values()]
      : kind === 'AdSet'
        ? [...world.adsets.values()]
        : [...world.ads.values()];
  switch (parent.kind) {
    case 'AdAccount':
      return all.filter((item) => item.accountId === parent.node.accountId);
    case 'Campaign':
      return all.filter((item) => 'campaignId' in item && item.campaignId === parent.node.id);
    case 'AdSet':
      return all.filter((item) => 'adsetId' in item && item.adsetId === parent.node.id);
    default:
      return [];
  }
}

/** Graph's answer for a name that is no edge of the node, or an edge of Graph's the simulator does not model. */
export function unknownEdge(kind: Parent['kind'], edge: string): GraphAnswer {
  const inSpec = kind === 'User' || edgeParams(kind, 'GET', edge) !== undefined;
  return inSpec
    ? errorAnswer(400, 100, `(#100) The simulator does not model the edge /${edge} of node type ${kind}`)
    : errorAnswer(400, 100, `(#100) Tried accessing nonexisting field (${edge}) on node type (${kind})`);
}

/** `summary=true` (or `total_count`) → `{total_count}`; undefined without the param. */
function summaryOf(params: Params, total: number): { total_count: number } | GraphAnswer | undefined {
  const raw = params.summary;
  if (raw === undefined || raw === 'false' || raw === '0') return undefined;
  if (['true', '1', 'total_count', '["total_count"]'].includes(raw)) return { total_count: total };
  return errorAnswer(400, 100, `(#100) The simulator's list summary is total_count only (summary=true), not ${raw}`);
}

function withSummary(answer: GraphAnswer, summary: { total_count: number } | undefined): GraphAnswer {
  if (!summary || answer.status !== 200) return answer;
  return { ...answer, body: { ...(answer.body as object), summary } };
}

/** `effective_status=["ACTIVE","PAUSED"]` (or a comma list), each value one the edge's spec allows. */
function wantedStatuses(parent: SpecNode, kind: NodeType, edge: string, params: Params): string[] | GraphAnswer {
  if (!params.effective_status) return [];
  let wanted: string[];
  try {
    wanted = JSON.parse(params.effective_status) as string[];
    if (!Array.isArray(wanted)) throw new Error('not a list');
  } catch {
    wanted = params.effective_status.split(',');
  }
  const type = /^list<(.+)>$/.exec(edgeParamType(parent, 'GET', edge, 'effective_status') ?? '')?.[1] ?? '';
  const allowed = enumValues(type) ?? enumValues(`${kind}_effective_status`)!;
  const index = wanted.findIndex((value) => !allowed.includes(String(value)));
  if (index >= 0)
    return errorAnswer(400, 100, `(#100) Param effective_status[${index}] must be one of {${allowed.join(', ')}}`);
  return wanted.map(String);
}

/** What each list can be filtered on: the object's own fields, bare or prefixed, and its parents'. */
function FILTER_FIELDS(context: RenderContext): Record<ItemKind, FilterFields<Item>> {
  const { world, now } = context;
  const own = (prefix: string): FilterFields<Item> => {
    const fields: FilterFields<Item> = {
      id: { kind: 'id', read: (item) => item.id },
      name: { kind: 'text', read: (item) => item.name },
      effective_status: { kind: 'enum', read: (item) => effectiveStatus(world, item, now) },
      updated_time: { kind: 'time', read: (item) => Math.floor(updatedAt(item, now) / 1000) },
      created_time: { kind: 'time', read: (item) => Math.floor(item.createdTime / 1000) },
    };
    return {
      ...fields,
      ...Object.fromEntries(Object.entries(fields).map(([key, spec]) => [`${prefix}.${key}`, spec])),
    };
  };
  const parentFields = (prefix: 'campaign' | 'adset', find: (item: Item) => Item): FilterFields<Item> =>
    Object.fromEntries(
      Object.entries(own(prefix))
        .filter(([key]) => key.startsWith(`${prefix}.`))
        .map(([key, spec]) => [key, { kind: spec.kind, read: (item: Item) => spec.read(find(item)) }]),
    );
  const campaignOf = (item: Item) => world.campaigns.get((item as SimAdSet).campaignId)!;
  const adsetOf = (item: Item) => world.adsets.get((item as SimAd).adsetId)!;
  return {
    Campaign: own('campaign'),
    AdSet: { ...own('adset'), ...parentFields('campaign', campaignOf) },
    Ad: { ...own('ad'), ...parentFields('campaign', campaignOf), ...parentFields('adset', adsetOf) },
  };
}
