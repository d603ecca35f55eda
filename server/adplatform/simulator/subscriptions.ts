/**
 * Ad-account subscriptions (Meta's ads webhooks, July 2026): what an app asks to be told about
 * one ad account — a metric crossing a threshold (INSIGHTS_UPDATED), a lifetime multiple reached
 * (INSIGHTS_MILESTONE_REACHED) or a field of an object changing (METADATA_UPDATED). Served as
 * `GET/POST /act_{id}/subscriptions` and `GET/POST/DELETE /{subscription_id}`; crossings.ts
 * watches them as the clock moves and webhooks.ts delivers what it finds.
 *
 * Units as in Meta's rule filters: money in minor units (cents), CTR in percent. What Meta's notes
 * leave open, the simulator decides and docs/simulator.md says: the metrics it knows
 * (SUBSCRIBABLE_METRICS), at most MAX_SUBSCRIPTIONS per account.
 */
import { errorAnswer, type GraphAnswer, type Params } from './answers';
import type { World } from './world';

export type SubscriptionEvent = 'INSIGHTS_UPDATED' | 'INSIGHTS_MILESTONE_REACHED' | 'METADATA_UPDATED';
export type SubscribedObject = 'AD' | 'CAMPAIGN';

export interface ThresholdFilter {
  field: string;
  operator: 'GREATER_THAN' | 'LESS_THAN';
  value: number;
}

export interface SimSubscription {
  id: string;
  /** Digits. */
  accountId: string;
  eventType: SubscriptionEvent;
  objectType: SubscribedObject;
  name: string;
  /** INSIGHTS_UPDATED: every filter holds (ANDed), checked on lifetime numbers as insights report them. */
  filters: ThresholdFilter[];
  /** INSIGHTS_MILESTONE_REACHED: each multiple of `step` of a lifetime metric. */
  milestone?: { field: 'spend' | 'leadgen'; step: number };
  /** METADATA_UPDATED: the object fields whose change is told. */
  fields: string[];
  createdTime: number;
}

/** Lifetime metrics a threshold may name (today_spent: since the account's midnight). */
export const SUBSCRIBABLE_METRICS = [
  'spend',
  'today_spent',
  'impressions',
  'clicks',
  'link_clicks',
  'ctr',
  'cpc',
  'leadgen',
  'website_leads',
  'cost_per_lead_fb',
  'cost_per_website_lead',
] as const;
export const WATCHED_FIELDS = ['effective_status', 'status', 'name', 'daily_budget'] as const;
export const MAX_FILTERS = 20;
export const MAX_SUBSCRIPTIONS = 100;
/** Meta's smallest milestone steps: $10 of spend (in cents), 5 results. */
const SMALLEST_STEP = { spend: 1000, leadgen: 5 } as const;

const EVENTS: readonly SubscriptionEvent[] = ['INSIGHTS_UPDATED', 'INSIGHTS_MILESTONE_REACHED', 'METADATA_UPDATED'];
const OBJECTS: readonly SubscribedObject[] = ['AD', 'CAMPAIGN'];

class Invalid extends Error {}

function parseJson(params: Params, name: string): unknown {
  const raw = params[name];
  if (raw === undefined || raw === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    throw new Invalid(`(#100) Param ${name} must be JSON`);
  }
}

function thresholdsOf(value: unknown): ThresholdFilter[] {
  if (!Array.isArray(value) || !value.length) throw new Invalid('(#100) Param filters must list at least one filter');
  if (value.length > MAX_FILTERS) throw new Invalid(`(#100) At most ${MAX_FILTERS} filters per subscription`);
  return value.map((raw) => {
    const { field, operator, value: threshold } = (raw ?? {}) as Record<string, unknown>;
    if (!SUBSCRIBABLE_METRICS.includes(field as never))
      throw new Invalid(`(#100) Unsupported filter field ${String(field)}: ${SUBSCRIBABLE_METRICS.join(', ')}`);
    if (operator !== 'GREATER_THAN' && operator !== 'LESS_THAN')
      throw new Invalid('(#100) A filter operator is GREATER_THAN or LESS_THAN');
    const number = Number(threshold);
    if (!Number.isFinite(number)) throw new Invalid(`(#100) The value of ${String(field)} must be a number`);
    return { field: field as string, operator, value: number };
  });
}

function milestoneOf(value: unknown): SimSubscription['milestone'] {
  const { field, step } = (value ?? {}) as Record<string, unknown>;
  if (field !== 'spend' && field !== 'leadgen') throw new Invalid('(#100) A milestone counts spend or leadgen');
  const number = Number(step);
  if (!Number.isFinite(number) || number < SMALLEST_STEP[field])
    throw new Invalid(`(#100) A ${field} milestone steps by at least ${SMALLEST_STEP[field]}`);
  return { field, step: number };
}

function fieldsOf(value: unknown): string[] {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
  if (!list.length || list.some((f) => !WATCHED_FIELDS.includes(f as never)))
    throw new Invalid(`(#100) Param fields names one or more of ${WATCHED_FIELDS.join(', ')}`);
  return list as string[];
}

/** What a create or an update sets; an update keeps what it does not name. */
function specOf(params: Params, base?: SimSubscription): Omit<SimSubscription, 'id' | 'accountId' | 'createdTime'> {
  const eventType = (params.event_type ?? base?.eventType) as SubscriptionEvent;
  if (!EVENTS.includes(eventType)) throw new Invalid(`(#100) Param event_type must be one of ${EVENTS.join(', ')}`);
  const objectType = (params.object_type ?? base?.objectType ?? 'AD') as SubscribedObject;
  if (!OBJECTS.includes(objectType)) throw new Invalid(`(#100) Param object_type must be one of ${OBJECTS.join(', ')}`);
  const kept = base?.eventType === eventType ? base : undefined;
  const filters = parseJson(params, 'filters');
  const milestone = parseJson(params, 'milestone');
  const rawFields = params.fields?.trim();
  const fields =
    rawFields === undefined || rawFields === ''
      ? undefined
      : rawFields.startsWith('[')
        ? parseJson(params, 'fields')
        : rawFields.split(',').map((f) => f.trim());
  return {
    eventType,
    objectType,
    name: params.name ?? base?.name ?? '',
    filters:
      eventType === 'INSIGHTS_UPDATED' ? (filters === undefined && kept ? kept.filters : thresholdsOf(filters)) : [],
    milestone:
      eventType === 'INSIGHTS_MILESTONE_REACHED'
        ? milestone === undefined && kept
          ? kept.milestone
          : milestoneOf(milestone)
        : undefined,
    fields: eventType === 'METADATA_UPDATED' ? (fields === undefined && kept ? kept.fields : fieldsOf(fields)) : [],
  };
}

/** A subscription as Graph answers it. */
export function subscriptionView(s: SimSubscription): Record<string, unknown> {
  return {
    id: s.id,
    event_type: s.eventType,
    object_type: s.objectType,
    name: s.name,
    ...(s.eventType === 'INSIGHTS_UPDATED' ? { filters: s.filters } : {}),
    ...(s.milestone ? { milestone: s.milestone } : {}),
    ...(s.eventType === 'METADATA_UPDATED' ? { fields: s.fields } : {}),
    created_time: new Date(s.createdTime).toISOString().replace(/\.\d{3}Z$/, '+0000'),
  };
}

export class SubscriptionBook {
  private readonly byId = new Map<string, SimSubscription>();
  /** Bumped by every change, so the crossing watch knows to look at its list again. */
  revision = 0;

  constructor(private readonly world: World) {}

  list(accountId?: string): SimSubscription[] {
    return [...this.byId.values()].filter((s) => accountId === undefined || s.accountId === accountId);
  }

  get(id: string): SimSubscription | undefined {
    return this.byId.get(id);
  }

  /**
   * The Graph answer for a subscriptions path, or undefined when the path is not one:
   * `/act_{id}/subscriptions` (GET a page, POST a new one) and `/{subscription_id}` (GET, POST an update, DELETE).
   */
  answer(method: string, head: string, edge: string | undefined, params: Params, now: number): GraphAnswer | undefined {
    try {
      if (edge === 'subscriptions' && head.startsWith('act_')) {
        const account = this.world.account(head);
        if (!account) return undefined;
        const accountId = account.accountId;
        if (method === 'GET')
          return { status: 200, body: { data: this.list(accountId).map(subscriptionView) }, accountId };
        if (method !== 'POST') return undefined;
        if (this.list(accountId).length >= MAX_SUBSCRIPTIONS)
          return {
            ...errorAnswer(400, 100, `(#100) At most ${MAX_SUBSCRIPTIONS} subscriptions per ad account`),
            accountId,
          };
        const created: SimSubscription = { id: this.world.newId(), accountId, createdTime: now, ...specOf(params) };
        this.byId.set(created.id, created);
        this.revision += 1;
        return { status: 200, body: { id: created.id }, accountId, wrote: true };
      }
      const found = edge === undefined ? this.byId.get(head) : undefined;
      if (!found) return undefined;
      const accountId = found.accountId;
      if (method === 'GET') return { status: 200, body: subscriptionView(found), accountId };
      if (method === 'DELETE') {
        this.byId.delete(found.id);
        this.revision += 1;
        return { status: 200, body: { success: true }, accountId, wrote: true };
      }
      if (method !== 'POST') return undefined;
      this.byId.set(found.id, { ...found, ...specOf(params, found) });
      this.revision += 1;
      return { status: 200, body: { success: true }, accountId, wrote: true };
    } catch (error) {
      if (error instanceof Invalid) return errorAnswer(400, 100, error.message);
      throw error;
    }
  }
}
