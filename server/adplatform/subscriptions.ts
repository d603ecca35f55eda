/**
 * Meta's ad-account subscriptions (ads webhooks, July 2026): what the product asks Meta to push
 * about one ad account — a metric crossing a threshold (INSIGHTS_UPDATED), a lifetime multiple
 * (INSIGHTS_MILESTONE_REACHED), a field changing (METADATA_UPDATED). Created, changed and deleted
 * through `/act_{id}/subscriptions` and `/{subscription_id}`; each call is paced by the account's
 * usage like every other. Money in minor units (cents), as in Meta's rule filters.
 */
import type { GraphTransport, Params } from './graphTransport';

export type SubscriptionEvent = 'INSIGHTS_UPDATED' | 'INSIGHTS_MILESTONE_REACHED' | 'METADATA_UPDATED';

export interface SubscriptionFilter {
  field: string;
  operator: 'GREATER_THAN' | 'LESS_THAN';
  value: number;
}

export interface SubscriptionSpec {
  event_type: SubscriptionEvent;
  object_type: 'AD' | 'CAMPAIGN';
  filters?: SubscriptionFilter[];
  milestone?: { field: 'spend' | 'leadgen'; step: number };
  fields?: string[];
  name?: string;
}

export interface AccountSubscription extends SubscriptionSpec {
  id: string;
}

export interface SubscriptionClient {
  listSubscriptions(adAccountId: string): Promise<AccountSubscription[]>;
  /** Answers the new subscription's id. */
  createSubscription(adAccountId: string, spec: SubscriptionSpec): Promise<string>;
  updateSubscription(adAccountId: string, id: string, spec: SubscriptionSpec): Promise<void>;
  deleteSubscription(adAccountId: string, id: string): Promise<void>;
}

const digits = (adAccountId: string) => adAccountId.replace(/^act_/, '');

function paramsOf(spec: SubscriptionSpec): Params {
  return {
    event_type: spec.event_type,
    object_type: spec.object_type,
    name: spec.name,
    filters: spec.filters ? JSON.stringify(spec.filters) : undefined,
    milestone: spec.milestone ? JSON.stringify(spec.milestone) : undefined,
    fields: spec.fields ? JSON.stringify(spec.fields) : undefined,
  };
}

/** The subscription calls over a Graph client (or any transport speaking Graph). */
export function graphSubscriptions(graph: GraphTransport): SubscriptionClient {
  return {
    listSubscriptions: (adAccountId) =>
      graph.getAll<AccountSubscription>(`act_${digits(adAccountId)}/subscriptions`, { limit: 100 }),
    async createSubscription(adAccountId, spec) {
      const created = await graph.request<{ id: string }>(
        'POST',
        `act_${digits(adAccountId)}/subscriptions`,
        paramsOf(spec),
      );
      return created.id;
    },
    async updateSubscription(adAccountId, id, spec) {
      await graph.request('POST', id, paramsOf(spec), { scope: digits(adAccountId) });
    },
    async deleteSubscription(adAccountId, id) {
      await graph.request('DELETE', id, {}, { scope: digits(adAccountId) });
    },
  };
}
