/**
 * What Meta's ads webhooks deliver, read into changes the push worker can act on. The envelope is
 * Graph's: `{object: 'ad_account', entry: [{id, time, changes: [{field, value}]}]}`. The fields read:
 *
 * - `subscriptions` (ad-account subscriptions): `{subscription_id, event_type, object_type,
 *   object_id, event_time}` — a threshold crossed (INSIGHTS_UPDATED), a milestone reached
 *   (INSIGHTS_MILESTONE_REACHED), a field changed (METADATA_UPDATED, `changed_fields`);
 * - `with_issues_ad_objects`, `in_process_ad_objects`: an object's effective status changed (`id`).
 *
 * A change never says the new numbers or status: whoever acts on it reads them. Each change is
 * keyed by its content, so a redelivery (Meta resends until answered) is known for what it is.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';

const MAX_ITEMS = 1000;

export const webhookBodySchema = z
  .object({
    object: z.string().max(100),
    entry: z
      .array(
        z.object({
          id: z.union([z.string().max(40), z.number()]),
          time: z.number(),
          changes: z
            .array(z.object({ field: z.string().max(100), value: z.unknown() }))
            .max(MAX_ITEMS)
            .optional(),
        }),
      )
      .max(MAX_ITEMS),
  })
  .describe('Meta’s webhook envelope');

export type WebhookBody = z.infer<typeof webhookBodySchema>;

/** What a change can mean to a rule: numbers crossed a line, a milestone, a status changed, or something else. */
export type ChangeKind = 'threshold' | 'milestone' | 'status' | 'other';

export interface PushedChange {
  deliveryKey: string;
  /** act_… */
  adAccountId: string;
  objectId: string | null;
  objectType: string | null;
  kind: ChangeKind;
  /** Meta's event type, or the webhook field. */
  event: string;
  subscriptionId: string | null;
  eventAt: Date;
}

const STATUS_FIELDS = new Set(['with_issues_ad_objects', 'in_process_ad_objects']);
const KIND_OF_EVENT: Record<string, ChangeKind> = {
  INSIGHTS_UPDATED: 'threshold',
  INSIGHTS_MILESTONE_REACHED: 'milestone',
};

/** JSON with object keys in order: the same content gives the same text however it was sent. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : null);

function kindOf(field: string, value: Record<string, unknown>): { kind: ChangeKind; event: string } {
  if (STATUS_FIELDS.has(field)) return { kind: 'status', event: field };
  if (field !== 'subscriptions') return { kind: 'other', event: field };
  const event = text(value.event_type) ?? field;
  const changed = Array.isArray(value.changed_fields) ? value.changed_fields : [];
  if (event === 'METADATA_UPDATED')
    return { kind: changed.includes('effective_status') || changed.includes('status') ? 'status' : 'other', event };
  return { kind: KIND_OF_EVENT[event] ?? 'other', event };
}

/** The changes of a delivery that name an ad account (other objects' entries are not this product's). */
export function changesOf(body: WebhookBody): PushedChange[] {
  if (body.object !== 'ad_account') return [];
  return body.entry.flatMap((entry) => {
    const adAccountId = `act_${String(entry.id).replace(/^act_/, '')}`;
    return (entry.changes ?? []).map((change): PushedChange => {
      const value = (change.value && typeof change.value === 'object' ? change.value : {}) as Record<string, unknown>;
      const seconds = typeof value.event_time === 'number' ? value.event_time : entry.time;
      return {
        deliveryKey: createHash('sha256')
          .update(canonical([adAccountId, entry.time, change.field, change.value ?? null]))
          .digest('hex'),
        adAccountId,
        objectId: text(value.object_id) ?? text(value.id),
        objectType: text(value.object_type) ?? text(value.level),
        ...kindOf(change.field, value),
        subscriptionId: text(value.subscription_id),
        eventAt: new Date(seconds * 1000),
      };
    });
  });
}
