/**
 * Keeps each ad account's subscriptions on Meta in step with its active rules (desired.ts): the
 * account's subscriptions are listed, those no rule needs any more are deleted, those still
 * missing made — a watch whose line moved (a CPL of $50 made $60) is changed in place. What was
 * made is kept in `meta_subscriptions`, so a notification is read back into the line it crossed,
 * and the account's `reconciled_key` says which set is on Meta (the floor trusts push only then).
 *
 * Run when rules, their items or folders change (the database's data_changed notification, from
 * any process), at the engine's start and at each scan. One worker at a time per account (a lease).
 */
import { createHash } from 'node:crypto';
import { and, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { AccountSubscription, SubscriptionClient } from '../adplatform/subscriptions';
import type { Database } from '../db/client';
import { metaPushAccounts, metaSubscriptions } from '../db/schema/index';
import { errorMessage } from '../errorMessage';
import { loadEngineRules, scheduledRules, type LoadedEngineRule } from '../run/rulesSource';
import { accountSubscriptions, keyOf, kindOf, type WantedSubscription } from './desired';

const LEASE_MS = 2 * 60_000;

export interface ReconcileDeps {
  db: Database;
  subscriptions: SubscriptionClient;
  warn(message: string): void;
}

/** The set's name: equal names, equal sets. */
export const setKey = (wanted: WantedSubscription[]) =>
  createHash('sha256')
    .update(wanted.map((w) => w.key).join('\n'))
    .digest('hex')
    .slice(0, 32);

/** Each account's active rules, loaded as the engine reads them. */
export async function activeRulesByAccount(db: Database): Promise<Map<string, LoadedEngineRule[]>> {
  const scheduled = await scheduledRules(db);
  const loaded = await loadEngineRules(
    db,
    scheduled.map((r) => r.id),
  );
  const byAccount = new Map<string, LoadedEngineRule[]>();
  for (const rule of loaded.values()) {
    if (rule.isDeleted || !rule.isActive) continue;
    const id = rule.account.adAccountId;
    byAccount.set(id, [...(byAccount.get(id) ?? []), rule]);
  }
  return byAccount;
}

/** Reconciles every account whose set on Meta is not the one its rules need (or `only` these). */
export async function reconcileAccounts(deps: ReconcileDeps, only?: string[]): Promise<void> {
  const { db } = deps;
  const rules = await activeRulesByAccount(db);
  const known = await db.select().from(metaPushAccounts);
  const stateOf = new Map(known.map((row) => [row.adAccountId, row]));
  const accounts = new Set([
    ...rules.keys(),
    ...known.filter((row) => row.reconciledKey !== null && row.reconciledKey !== setKey([])).map((r) => r.adAccountId),
  ]);
  for (const adAccountId of accounts) {
    if (only && !only.includes(adAccountId)) continue;
    const own = rules.get(adAccountId) ?? [];
    const wanted = accountSubscriptions(own, own[0]?.account.currency ?? 'USD');
    const key = setKey(wanted);
    const state = stateOf.get(adAccountId);
    if (state?.reconciledKey === key && !state.error) continue;
    if (!(await lease(db, adAccountId, key))) continue;
    try {
      await reconcileOne(deps, adAccountId, wanted);
      await db
        .update(metaPushAccounts)
        .set({ reconciledKey: key, reconciledAt: sql`now()`, error: null, leaseUntil: null })
        .where(eq(metaPushAccounts.adAccountId, adAccountId));
    } catch (error) {
      deps.warn(`push: the subscriptions of ${adAccountId} could not be brought in step: ${errorMessage(error)}`);
      await db
        .update(metaPushAccounts)
        .set({ error: errorMessage(error), leaseUntil: null })
        .where(eq(metaPushAccounts.adAccountId, adAccountId));
    }
  }
}

/** Takes the account for this worker (false: another holds it). */
async function lease(db: Database, adAccountId: string, desiredKey: string): Promise<boolean> {
  const leaseUntil = sql`now() + ${LEASE_MS} * interval '1 millisecond'`;
  const rows = await db
    .insert(metaPushAccounts)
    .values({ adAccountId, desiredKey, leaseUntil })
    .onConflictDoUpdate({
      target: metaPushAccounts.adAccountId,
      set: { desiredKey, leaseUntil },
      setWhere: or(isNull(metaPushAccounts.leaseUntil), lt(metaPushAccounts.leaseUntil, sql`now()`)),
    })
    .returning({ id: metaPushAccounts.adAccountId });
  return rows.length > 0;
}

/** Lists, then deletes, changes and makes what differs; keeps what is on Meta afterwards. */
async function reconcileOne(deps: ReconcileDeps, adAccountId: string, wanted: WantedSubscription[]): Promise<void> {
  const { db, subscriptions } = deps;
  const current = await subscriptions.listSubscriptions(adAccountId);
  const wantedKeys = new Set(wanted.map((w) => w.key));
  const onMeta = new Map(current.map((s) => [keyOf(s), s]));
  const extra: AccountSubscription[] = current.filter((s) => !wantedKeys.has(keyOf(s)));
  const made = new Map<string, string>(
    wanted.filter((w) => onMeta.has(w.key)).map((w) => [w.key, onMeta.get(w.key)!.id]),
  );
  for (const want of wanted.filter((w) => !onMeta.has(w.key))) {
    const movable = extra.findIndex((s) => kindOf(s) === kindOf(want.spec));
    if (movable >= 0) {
      const [moved] = extra.splice(movable, 1);
      await subscriptions.updateSubscription(adAccountId, moved!.id, want.spec);
      made.set(want.key, moved!.id);
    } else {
      made.set(want.key, await subscriptions.createSubscription(adAccountId, want.spec));
    }
  }
  for (const gone of extra) await subscriptions.deleteSubscription(adAccountId, gone.id);
  await db.transaction(async (tx) => {
    await tx.delete(metaSubscriptions).where(eq(metaSubscriptions.adAccountId, adAccountId));
    if (wanted.length)
      await tx.insert(metaSubscriptions).values(
        wanted.map((w) => ({
          adAccountId,
          specKey: w.key,
          subscriptionId: made.get(w.key)!,
          spec: { ...w.spec, line: w.line },
        })),
      );
  });
}

/** The accounts whose subscriptions are on Meta as their rules need them, and since when (database clock). */
export async function accountsInStep(db: Database, adAccountIds: string[]): Promise<Map<string, Date>> {
  if (!adAccountIds.length) return new Map();
  const rows = await db
    .select({ id: metaPushAccounts.adAccountId, at: metaPushAccounts.reconciledAt })
    .from(metaPushAccounts)
    .where(
      and(
        inArray(metaPushAccounts.adAccountId, adAccountIds),
        eq(metaPushAccounts.reconciledKey, metaPushAccounts.desiredKey),
        isNull(metaPushAccounts.error),
        isNotNull(metaPushAccounts.reconciledAt),
      ),
    );
  return new Map(rows.map((r) => [r.id, r.at!]));
}
