/**
 * The Graph paths the simulator answers, routed to what answers them: node reads (`/me`, `/act_X`,
 * `/{id}`, several at once with `/?ids=a,b`), list edges and insights (edges.ts), writes and
 * deletes (writes.ts), async insight reports (reports.ts), lead retrieval (leads.ts). Fields, expansions included, are rendered by render.ts from the node tables
 * in nodes.ts. HTTP, batching and faults live in http.ts.
 */
import { edgeParams } from '../graphSpec';
import { errorAnswer, notFound, Refusal, type GraphAnswer, type GraphContext, type Params } from './answers';
import { isCreativeId } from './assets';
import { listEdge, unknownEdge } from './edges';
import { leadsAnswer } from './leads';
import { parseFields, type FieldNode } from './fieldTree';
import { refuseParams } from './params';
import { ReportRuns } from './reports';
import { renderer, type Parent, type RenderContext, type SimUser } from './render';
import type { SimClock } from './clock';
import { deleteObject, writeObject, type FoundObject, type WriteRecord } from './writes';
import { SubscriptionBook } from './subscriptions';
import { WebhookSender } from './webhooks';
import type { World } from './world';

export { errorAnswer, type GraphAnswer, type GraphContext, type Params } from './answers';
export type { WriteRecord } from './writes';

const DEFAULT_FIELDS: Record<Parent['kind'], string[]> = {
  User: ['id', 'name'],
  AdAccount: ['id', 'account_id'],
  Campaign: ['id', 'name'],
  AdSet: ['id', 'name'],
  Ad: ['id', 'name'],
};

export class GraphHandler {
  readonly writes: WriteRecord[] = [];
  readonly user: SimUser;
  readonly reports: ReportRuns;
  /** The ad accounts' webhook subscriptions and the app's callback they are delivered to (crossings.ts watches them). */
  readonly subscriptions: SubscriptionBook;
  readonly webhooks = new WebhookSender();

  constructor(
    readonly world: World,
    readonly clock: SimClock,
  ) {
    this.reports = new ReportRuns(world);
    this.subscriptions = new SubscriptionBook(world);
    this.user = {
      id: `10${world.accounts[0]?.accountId.slice(0, 12) ?? '000000000000'}`,
      name: 'Ad Rules Simulator User',
    };
  }

  handle(method: string, path: string, params: Params, graph: GraphContext): GraphAnswer {
    const context: RenderContext = { world: this.world, now: this.clock.now(), graph, listEdge };
    try {
      return this.route(method, path, params, context);
    } catch (error) {
      if (error instanceof Refusal) return error.answer;
      throw error;
    }
  }

  private route(method: string, path: string, params: Params, context: RenderContext): GraphAnswer {
    const [head, edge, ...rest] = path.split('/').filter(Boolean);
    // Meta's SDKs send an object's own id with every write and edge creation; it names the node, nothing more.
    if (method !== 'GET' && head && params.id === head) params = withoutId(params);
    if (rest.length) return errorAnswer(400, 100, `Unknown path components: /${rest.join('/')}`);
    if (!head) {
      if (method === 'GET' && params.ids !== undefined) return this.readMany(params, context);
      return errorAnswer(400, 100, '(#100) Missing a node id: GET /?ids=a,b or a path like /{id}');
    }
    const report = this.reports.answer(method, head, edge, params, path, context.graph, context.now);
    if (report) return report;
    const leads = leadsAnswer(this.world, context.now, method, path, params, context.graph);
    if (leads) return leads;
    const subscriptions = this.subscriptions.answer(method, head, edge, params, context.now);
    if (subscriptions) return subscriptions;
    if (isCreativeId(this.world, head))
      return errorAnswer(400, 100, "(#100) The simulator does not model AdCreative nodes: ask for an ad's creative{…}");
    const parent = this.find(head);
    if (!parent) return notFound(head, method);
    const accountId = parent.kind === 'User' ? undefined : parent.node.accountId;
    const answer = edge
      ? this.onEdge(method, parent, edge, params, context)
      : this.onNode(method, parent, params, context);
    return { ...answer, accountId: answer.accountId ?? accountId };
  }

  private onNode(method: string, parent: Parent, params: Params, context: RenderContext): GraphAnswer {
    if (method === 'GET') return { status: 200, body: this.read(parent, params, context) };
    if (parent.kind === 'User' || parent.kind === 'AdAccount')
      return errorAnswer(400, 100, `(#100) The simulator does not write ${parent.kind} nodes`);
    const found = parent as FoundObject & Parent;
    const object = { kind: found.kind, value: found.node } as FoundObject;
    const now = this.clock.now();
    if (method === 'POST' || method === 'DELETE') {
      const tooMany = this.world.limits.mutationRefusal(found.node.accountId);
      if (tooMany) return tooMany;
    }
    const written =
      method === 'POST'
        ? writeObject(this.world, object, params, now, this.writes)
        : method === 'DELETE'
          ? deleteObject(object, withoutToken(params), now, this.writes)
          : undefined;
    if (written?.wrote) {
      this.world.revision += 1;
      this.world.limits.mutated(found.node.accountId);
    }
    if (written) return written;
    return errorAnswer(400, 100, `(#100) Unsupported ${method.toLowerCase()} request.`);
  }

  private onEdge(method: string, parent: Parent, edge: string, params: Params, context: RenderContext): GraphAnswer {
    if (method === 'GET') return listEdge(parent, edge, params, context);
    if (parent.kind !== 'User' && edgeParams(parent.kind, method, edge) !== undefined)
      return errorAnswer(
        400,
        100,
        `(#100) The simulator does not model ${method} /${edge} on node type ${parent.kind}`,
      );
    if (parent.kind === 'User' || edgeParams(parent.kind, 'GET', edge) === undefined)
      return unknownEdge(parent.kind, edge);
    return errorAnswer(400, 100, `(#100) Unsupported ${method.toLowerCase()} request on edge /${edge}`);
  }

  /** One node in the fields asked for (`fields` may expand parents and edges). */
  private read(parent: Parent, params: Params, context: RenderContext): Record<string, unknown> {
    const spec = parent.kind === 'User' ? [] : edgeParams(parent.kind, 'GET', '#get');
    const refusal = refuseParams(params, `a read of node type ${parent.kind}`, ['fields'], spec);
    if (refusal) throw new Refusal(refusal);
    const render = renderer(parent.kind, fieldsOf(params, DEFAULT_FIELDS[parent.kind]), context);
    return (render as (node: unknown) => Record<string, unknown>)(parent.node);
  }

  /** `GET /?ids=a,b&fields=…` → `{a: {…}, b: {…}}`; one unknown id refuses the whole call (#803). */
  private readMany(params: Params, context: RenderContext): GraphAnswer {
    const { ids, ...rest } = params;
    const wanted = (ids ?? '')
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean);
    if (!wanted.length) return errorAnswer(400, 100, '(#100) Param ids must name at least one id');
    const found = wanted.map((id) => [id, this.find(id)] as const);
    const missing = found.filter(([, parent]) => !parent).map(([id]) => id);
    if (missing.length)
      return errorAnswer(404, 803, `(#803) Some of the aliases you requested do not exist: ${missing.join(',')}`);
    const body = Object.fromEntries(found.map(([id, parent]) => [id, this.read(parent!, rest, context)]));
    const accounts = found.flatMap(([, parent]) => (parent!.kind === 'User' ? [] : [parent!.node.accountId]));
    return { status: 200, body, accountId: accounts[0] };
  }

  private find(id: string): Parent | undefined {
    if (id === 'me' || id === this.user.id) return { kind: 'User', node: this.user };
    if (id.startsWith('act_')) {
      const account = this.world.account(id);
      return account && { kind: 'AdAccount', node: account };
    }
    const campaign = this.world.campaigns.get(id);
    if (campaign) return { kind: 'Campaign', node: campaign };
    const adset = this.world.adsets.get(id);
    if (adset) return { kind: 'AdSet', node: adset };
    const ad = this.world.ads.get(id);
    if (ad && !ad.deleted) return { kind: 'Ad', node: ad };
    return undefined;
  }
}

function fieldsOf(params: Params, defaults: string[]): FieldNode[] {
  if (params.fields === undefined || params.fields.trim() === '')
    return defaults.map((name) => ({ name, modifiers: {} }));
  const fields = parseFields(params.fields);
  if ('error' in fields)
    throw new Refusal(errorAnswer(400, 100, `(#100) Syntax error in param fields: ${fields.error}`));
  return fields;
}

function withoutId(params: Params): Params {
  const { id: _id, ...rest } = params;
  return rest;
}

function withoutToken(params: Params): Params {
  const { access_token: _token, ...rest } = params;
  return rest;
}
