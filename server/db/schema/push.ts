import { index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { adAccountId, instant, instantNow, serialId } from './columns';
import { rules } from './rules';

/**
 * Every notification Meta's ads webhooks delivered (server/push/): one row per change, kept once
 * by its `delivery_key` (a redelivery or a duplicate finds it there and adds nothing). `event_at`
 * is when Meta says it happened, on the engine's clock. state: new (waiting for the push worker) |
 * woke (a run of the rules covering the object was queued: `run_slot`) | known (what the rules last
 * read already holds it) | deferred (its rules are off at this hour: their next scheduled run reads
 * it) | ignored (no rule covers the object). Pruned after two days.
 */
export const metaNotifications = pgTable(
  'meta_notifications',
  {
    id: serialId(),
    deliveryKey: text('delivery_key').notNull(),
    adAccountId: adAccountId().notNull(),
    objectId: text('object_id'),
    objectType: text('object_type'),
    /** threshold | milestone | status | other (what the change can mean to a rule). */
    kind: text('kind').notNull(),
    /** Meta's event type or webhook field, as delivered. */
    event: text('event').notNull(),
    subscriptionId: text('subscription_id'),
    eventAt: instant('event_at').notNull(),
    receivedAt: instantNow('received_at'),
    state: text('state').notNull().default('new'),
    note: text('note'),
    runSlot: instant('run_slot'),
    handledAt: instant('handled_at'),
  },
  (t) => [
    uniqueIndex('meta_notifications_delivery_key').on(t.deliveryKey),
    index('meta_notifications_account_state_idx').on(t.adAccountId, t.state),
    index('meta_notifications_received_idx').on(t.receivedAt),
  ],
);

/**
 * The ad-account subscriptions the product made on Meta (server/push/reconcile.ts), one per
 * threshold its rules need: `spec_key` names what is watched, `line` the threshold a rule cares
 * about (a milestone's first multiple), so a notification is read back into what crossed.
 */
export const metaSubscriptions = pgTable(
  'meta_subscriptions',
  {
    adAccountId: adAccountId().notNull(),
    specKey: text('spec_key').notNull(),
    subscriptionId: text('subscription_id').notNull(),
    spec: jsonb('spec').$type<Record<string, unknown>>().notNull(),
    createdAt: instantNow('created_at'),
  },
  (t) => [
    primaryKey({ columns: [t.adAccountId, t.specKey] }),
    uniqueIndex('meta_subscriptions_subscription').on(t.subscriptionId),
  ],
);

/**
 * Per ad account, whether its subscriptions are in step with its rules: `desired_key` names the
 * set its active rules need, `reconciled_key` the set last made on Meta (equal: in step, as of
 * `reconciled_at`); `lease_until` keeps two workers from reconciling one account at once.
 */
export const metaPushAccounts = pgTable('meta_push_accounts', {
  adAccountId: adAccountId().primaryKey(),
  desiredKey: text('desired_key'),
  reconciledKey: text('reconciled_key'),
  reconciledAt: instant('reconciled_at'),
  error: text('error'),
  leaseUntil: instant('lease_until'),
});

/**
 * When a rule under push is to look again without a notification (server/push/recheck.ts): an ad
 * that crossed while too early to judge matures at `due_at` (the engine's clock); `hourly_because`
 * says why its scheduled hours run meanwhile, when what it waits for cannot be timed (impressions, a
 * lag allowance).
 */
export const ruleRechecks = pgTable(
  'rule_rechecks',
  {
    ruleId: integer('rule_id')
      .primaryKey()
      .references(() => rules.id, { onDelete: 'cascade' }),
    adAccountId: adAccountId().notNull(),
    dueAt: instant('due_at'),
    hourlyBecause: text('hourly_because'),
    updatedAt: instantNow('updated_at'),
  },
  (t) => [index('rule_rechecks_due_idx').on(t.dueAt)],
);
