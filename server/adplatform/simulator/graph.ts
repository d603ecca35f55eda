/**
 * The Graph API subset the product uses, answered from the simulated world as Meta's specs
 * describe it: ad accounts, campaigns, ad sets, ads (fields per nodes.ts), insights (insights.ts),
 * object reads, status writes, `effective_status` filters and cursor paging. HTTP, batching and
 * faults live in http.ts.
 */
import { edgeParamType, enumValues } from '../graphSpec';
import {
  errorAnswer,
  notFound,
  page,
  requestedFields,
  type GraphAnswer,
  type GraphContext,
  type Params,
} from './answers';
import { insights } from './insights';
import { effectiveStatus, nodeRenderer, type NodeContext, type NodeType } from './nodes';
import type { SimClock } from './clock';
import type { SimAccount, SimAd, SimAdSet, SimCampaign, SimStatus, World } from './world';

export { errorAnswer, type GraphAnswer, type GraphContext, type Params } from './answers';

export interface WriteRecord {
  id: string;
  status: string;
  at: string;
}

type FoundObject =
  | { kind: 'Campaign'; value: SimCampaign }
  | { kind: 'AdSet'; value: SimAdSet }
  | { kind: 'Ad'; value: SimAd };

/** The statuses a write may set (Campaign_status, AdSet_status and Ad_status are the same four). */
const WRITABLE_STATUSES = enumValues('Campaign_status')!;
const HIDDEN_STATUSES = ['ARCHIVED', 'DELETED'];
const EDGE_NODES = { campaigns: 'Campaign', adsets: 'AdSet', ads: 'Ad' } as const;

export class GraphHandler {
  readonly writes: WriteRecord[] = [];

  constructor(
    readonly world: World,
    readonly clock: SimClock,
  ) {}

  handle(method: string, path: string, params: Params, context: GraphContext): GraphAnswer {
    const parts = path.split('/').filter(Boolean);
    const nodes: NodeContext = { world: this.world, now: this.clock.now() };
    if (method === 'GET' && parts[0] === 'me' && parts[1] === 'adaccounts' && parts.length === 2) {
      const render = nodeRenderer('AdAccount', requestedFields(params.fields, ['id', 'account_id']), nodes);
      if (typeof render !== 'function') return render;
      return page(this.world.accounts, render, params, path, context);
    }
    const [head, edge, ...rest] = parts;
    if (!head || rest.length) return errorAnswer(400, 100, `Unknown path components: /${parts.slice(2).join('/')}`);

    if (head.startsWith('act_')) {
      const account = this.world.account(head);
      if (!account) return notFound(head);
      if (!edge) {
        if (method !== 'GET') return errorAnswer(400, 100, 'Unsupported post request.');
        const render = nodeRenderer('AdAccount', requestedFields(params.fields, ['id', 'account_id']), nodes);
        if (typeof render !== 'function') return render;
        return { status: 200, body: render(account), accountId: account.accountId };
      }
      if (method !== 'GET') return errorAnswer(400, 100, `Unsupported post request on edge ${edge}`);
      return { ...this.accountEdge(account, edge, params, path, context, nodes), accountId: account.accountId };
    }

    const object = this.findObject(head);
    if (!object) return notFound(head);
    const accountId = object.value.accountId;
    if (!edge) {
      if (method === 'POST') return { ...this.write(object, params), accountId };
      const render = nodeRenderer(object.kind, requestedFields(params.fields, ['id', 'name']), nodes);
      if (typeof render !== 'function') return render;
      const value = object.value;
      return { status: 200, body: (render as (node: typeof value) => unknown)(value), accountId };
    }
    if (edge === 'insights' && method === 'GET') {
      const account = this.world.account(accountId)!;
      const inScope = (ad: SimAd) => ad.id === head || ad.adsetId === head || ad.campaignId === head;
      const level = { Campaign: 'campaign', AdSet: 'adset', Ad: 'ad' }[object.kind];
      return { ...insights(this.world, nodes.now, account, params, path, context, inScope, level), accountId };
    }
    return errorAnswer(400, 100, `Unknown path components: /${edge}`);
  }

  private findObject(id: string): FoundObject | undefined {
    const campaign = this.world.campaigns.get(id);
    if (campaign) return { kind: 'Campaign', value: campaign };
    const adset = this.world.adsets.get(id);
    if (adset) return { kind: 'AdSet', value: adset };
    const ad = this.world.ads.get(id);
    if (ad && !ad.deleted) return { kind: 'Ad', value: ad };
    return undefined;
  }

  /** A status write shows at once, also on an object that has not started delivering yet. */
  private write(object: FoundObject, params: Params): GraphAnswer {
    const status = params.status;
    if (!status || !WRITABLE_STATUSES.includes(status)) {
      return errorAnswer(400, 100, `(#100) Param status must be one of {${WRITABLE_STATUSES.join(', ')}}`, {
        error_subcode: 1815154,
      });
    }
    const now = this.clock.now();
    if (status === 'DELETED') {
      if (object.kind !== 'Ad')
        return errorAnswer(400, 100, `(#100) The simulator deletes ads only, not a ${object.kind}`);
      object.value.deleted = true;
    } else {
      const log = object.value.statusLog;
      while (log.length > 1 && log.at(-1)!.at > now) log.pop();
      log.push({ at: Math.max(now, log.at(-1)!.at), status: status as SimStatus });
    }
    this.writes.push({ id: object.value.id, status, at: new Date(now).toISOString() });
    return { status: 200, body: { success: true }, wrote: true };
  }

  private accountEdge(
    account: SimAccount,
    edge: string,
    params: Params,
    path: string,
    context: GraphContext,
    nodes: NodeContext,
  ): GraphAnswer {
    if (edge === 'insights')
      return insights(this.world, nodes.now, account, params, path, context, () => true, 'account');
    if (!(edge in EDGE_NODES))
      return errorAnswer(400, 100, `(#100) Tried accessing nonexisting field (${edge}) on node type (AdAccount)`);
    const kind = EDGE_NODES[edge as keyof typeof EDGE_NODES];
    const render = nodeRenderer(kind, requestedFields(params.fields, ['id']), nodes);
    if (typeof render !== 'function') return render;
    const source: Iterable<SimCampaign | SimAdSet | SimAd> =
      kind === 'Campaign'
        ? this.world.campaigns.values()
        : kind === 'AdSet'
          ? this.world.adsets.values()
          : this.world.ads.values();
    const wanted = this.wantedStatuses(kind, edge, params);
    if (!Array.isArray(wanted)) return wanted;
    // Without a filter Graph lists everything but archived and deleted objects.
    const listed = (status: string) => (wanted.length ? wanted.includes(status) : !HIDDEN_STATUSES.includes(status));
    const rows = [...source].filter(
      (item) => item.accountId === account.accountId && listed(effectiveStatus(this.world, item, nodes.now)),
    );
    return page(
      rows,
      render as (item: SimCampaign | SimAdSet | SimAd) => Record<string, unknown>,
      params,
      path,
      context,
    );
  }

  /** `effective_status=["ACTIVE","PAUSED"]` (or a comma list), each value one the edge's spec allows. */
  private wantedStatuses(kind: NodeType, edge: string, params: Params): string[] | GraphAnswer {
    if (!params.effective_status) return [];
    let wanted: string[];
    try {
      wanted = JSON.parse(params.effective_status) as string[];
      if (!Array.isArray(wanted)) throw new Error('not a list');
    } catch {
      wanted = params.effective_status.split(',');
    }
    const type = /^list<(.+)>$/.exec(edgeParamType('AdAccount', 'GET', edge, 'effective_status') ?? '')?.[1] ?? '';
    const allowed = enumValues(type) ?? enumValues(`${kind}_effective_status`)!;
    const index = wanted.findIndex((value) => !allowed.includes(String(value)));
    if (index >= 0)
      return errorAnswer(400, 100, `(#100) Param effective_status[${index}] must be one of {${allowed.join(', ')}}`);
    return wanted.map(String);
  }
}
