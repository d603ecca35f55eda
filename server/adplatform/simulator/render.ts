/**
 * A node as Graph writes it for a `fields` tree: plain fields off the node tables (nodes.ts), a
 * parent object expanded in place (`campaign{name,status}` on an ad), and edges inside `fields`
 * with their modifiers (`ads.limit(2){name}`, `insights.date_preset(last_7d){spend,actions}`),
 * answered by the edge lister as if called on their own. Anything that cannot be answered throws
 * a Refusal carrying Graph's error, so a request gets one error rather than part of an answer.
 */
import { errorAnswer, Refusal, type GraphAnswer, type GraphContext, type Params } from './answers';
import type { FieldNode } from './fieldTree';
import { nodeRenderer, type NodeContext, type NodeOf, type NodeType } from './nodes';
import { CREATIVE_FIELDS } from './assets';
import type { World } from './world';

export type RenderType = NodeType | 'User';

/** The simulated user behind every token (`/me`). */
export interface SimUser {
  id: string;
  name: string;
}

export type Parent =
  | { kind: 'User'; node: SimUser }
  | { kind: 'AdAccount'; node: NodeOf['AdAccount'] }
  | { kind: 'Campaign'; node: NodeOf['Campaign'] }
  | { kind: 'AdSet'; node: NodeOf['AdSet'] }
  | { kind: 'Ad'; node: NodeOf['Ad'] };

export interface RenderContext extends NodeContext {
  graph: GraphContext;
  /** Answers an edge of a parent as `GET /{parent}/{edge}` with these params would. */
  listEdge: (parent: Parent, edge: string, params: Params, context: RenderContext) => GraphAnswer;
}

type Render = (node: never) => Record<string, unknown>;

/** Fields that name a parent object (spec type Campaign / AdSet) and the node type they expand to. */
const PARENTS: Partial<Record<RenderType, Record<string, 'Campaign' | 'AdSet'>>> = {
  AdSet: { campaign: 'Campaign' },
  Ad: { campaign: 'Campaign', adset: 'AdSet' },
};

/** Plain fields that are objects: a `{…}` after them picks their keys. */
const OBJECT_FIELDS = new Set(['targeting', 'promoted_object', 'business', 'funding_source_details']);

const USER_FIELDS: Record<string, (user: SimUser) => unknown> = { id: (u) => u.id, name: (u) => u.name };

function parentOf(world: World, kind: 'Campaign' | 'AdSet', node: { campaignId: string; adsetId?: string }) {
  return kind === 'Campaign' ? world.campaigns.get(node.campaignId)! : world.adsets.get(node.adsetId!)!;
}

const refuse = (message: string): never => {
  throw new Refusal(errorAnswer(400, 100, `(#100) ${message}`));
};

/** The renderer of one node type for a fields tree; throws a Refusal when a field cannot be answered. */
export function renderer<T extends RenderType>(
  type: T,
  fields: readonly FieldNode[],
  context: RenderContext,
): (node: T extends NodeType ? NodeOf[T] : SimUser) => Record<string, unknown> {
  const edges = EDGE_FIELDS[type];
  const isExpanded = (field: FieldNode) => Boolean(PARENTS[type]?.[field.name]) || edges.includes(field.name);
  const plain = fields.filter((field) => !isExpanded(field));
  for (const field of plain) {
    const modifier = Object.keys(field.modifiers)[0];
    if (modifier) refuse(`Field ${field.name} of node type ${type} takes no modifiers (.${modifier}(…))`);
  }
  const base = plainRenderer(
    type,
    plain.map((field) => field.name),
    context,
  );
  const extras = fields
    .filter((field) => isExpanded(field) || field.children)
    .map((field) => extraField(type, field, context));
  return ((node: never) => {
    const out = base(node);
    for (const [name, value] of extras.map((extra) => extra(node))) if (value !== undefined) out[name] = value;
    return out;
  }) as never;
}

/** Edges that can be asked for inside `fields`, per node type. */
const EDGE_FIELDS: Record<RenderType, readonly string[]> = {
  User: ['adaccounts'],
  AdAccount: ['campaigns', 'adsets', 'ads', 'insights'],
  Campaign: ['adsets', 'ads', 'insights'],
  AdSet: ['ads', 'insights'],
  Ad: ['insights'],
};

function plainRenderer(type: RenderType, names: string[], context: RenderContext): Render {
  if (type !== 'User') {
    const render = nodeRenderer(type, names, context);
    if (typeof render !== 'function') throw new Refusal(render);
    return render as Render;
  }
  const unknown = names.find((name) => !USER_FIELDS[name]);
  if (unknown) refuse(`The simulator does not answer field (${unknown}) on node type (User): it answers id and name`);
  const wanted = names.includes('id') ? names : ['id', ...names];
  return ((user: SimUser) => Object.fromEntries(wanted.map((name) => [name, USER_FIELDS[name]!(user)]))) as Render;
}

/** How one expanded parent, picked object field or edge is read off a node: [name, value]. */
function extraField(type: RenderType, field: FieldNode, context: RenderContext): (node: never) => [string, unknown] {
  const parentKind = PARENTS[type]?.[field.name];
  if (parentKind) {
    if (Object.keys(field.modifiers).length) refuse(`Field ${field.name} takes no modifiers`);
    const render = renderer(
      parentKind,
      field.children?.length ? field.children : [{ name: 'id', modifiers: {} }],
      context,
    );
    return (node: never) => [field.name, render(parentOf(context.world, parentKind, node) as never)];
  }
  if (type === 'Ad' && field.name === 'creative') return creativeField(field, context);
  if (!EDGE_FIELDS[type].includes(field.name)) {
    if (!OBJECT_FIELDS.has(field.name))
      refuse(`Field ${field.name} of node type ${type} has no fields of its own to ask for with {…}`);
    const keys = (field.children ?? []).map((child) => child.name);
    const whole = plainRenderer(type, [field.name], context);
    return (node: never) => {
      const value = whole(node)[field.name] as Record<string, unknown> | undefined;
      return [
        field.name,
        value && Object.fromEntries(keys.filter((key) => key in value).map((key) => [key, value[key]])),
      ];
    };
  }
  const params: Params = Object.fromEntries(
    Object.entries(field.modifiers).map(([name, value]) => [
      name,
      /^[[{]/.test(value) ? value.replaceAll("'", '"') : value,
    ]),
  );
  if (field.children?.length) params.fields = field.children.map(writeField).join(',');
  return (node: never) => {
    const answer = context.listEdge({ kind: type, node } as Parent, field.name, params, context);
    if (answer.status !== 200) throw new Refusal(answer);
    return [field.name, answer.body];
  };
}

/** An ad's `creative{…}`: the creative's own fields (assets.ts), its id always among them. */
function creativeField(field: FieldNode, context: RenderContext): (node: never) => [string, unknown] {
  if (Object.keys(field.modifiers).length) refuse('Field creative takes no modifiers');
  const names = (field.children ?? []).map((child) => child.name);
  const unknown = names.find((name) => !CREATIVE_FIELDS[name]);
  if (unknown)
    refuse(
      `The simulator does not answer field (${unknown}) on node type (AdCreative). Simulated fields: ${Object.keys(CREATIVE_FIELDS).join(', ')}`,
    );
  const wanted = names.includes('id') ? names : ['id', ...names];
  return (node: never) => [
    'creative',
    Object.fromEntries(wanted.map((name) => [name, CREATIVE_FIELDS[name]!(node, context.world)])),
  ];
}

/** A field tree back to text, for an edge asked for inside `fields`. */
function writeField(field: FieldNode): string {
  const modifiers = Object.entries(field.modifiers)
    .map(([name, value]) => `.${name}(${value})`)
    .join('');
  return `${field.name}${modifiers}${field.children ? `{${field.children.map(writeField).join(',')}}` : ''}`;
}
