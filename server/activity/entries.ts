/**
 * The activity store: every write of rule_activity and rule_exemptions goes through here — claims
 * of turn-offs, turn-ons, revives and budget changes, their outcome, held runs, flapping alerts,
 * Meta's own pauses, mail sent once, undos and exemptions — with the reads the engine's runs make
 * of those tables while deciding. The Activity's pages read through ruleLogStore.ts.
 */
import { and, eq, gte, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { ruleActivity, ruleExemptions } from '../db/schema/index';
import type { PlannedAction } from '../judgement/evaluate';

export type ActivityRow = typeof ruleActivity.$inferSelect;

export const TURN_OFF_ACTIONS = ['turn_off_ad', 'turn_off_campaign'] as const;
export const TURN_ON_FOR: Record<string, 'turn_on_ad' | 'turn_on_campaign'> = {
  turn_off_ad: 'turn_on_ad',
  turn_off_campaign: 'turn_on_campaign',
};
export const RULE_TURN_ON_ACTIONS = ['rule_turn_on_ad', 'rule_turn_on_campaign'] as const;
/** Every switch of an object's status an entry records: a turn-on claim steps aside for any of them. */
const SWITCH_ACTIONS = [
  'turn_off_ad',
  'turn_off_campaign',
  'turn_on_ad',
  'turn_on_campaign',
  'revive_ad',
  ...RULE_TURN_ON_ACTIONS,
];

/**
 * Locks objects for the rest of a transaction, one advisory lock per (kind, object id), taken in one
 * order so that two claimers never deadlock. A kind ('turn-off', 'budget' …) names what is claimed:
 * claimers of one kind wait for each other, others do not.
 */
export async function lockObjects(tx: Pick<Database, 'execute'>, kind: string, ids: readonly string[]): Promise<void> {
  await tx.execute(sql`
    select pg_advisory_xact_lock(k) from (
      select distinct hashtextextended(${`${kind} `} || id, 0) as k
      from unnest(array[${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )}]::text[]) as id order by 1
    ) as objects`);
}

export interface RunScope {
  ruleId: number;
  folderId: number;
  slot: Date;
  snapshotId: number | null;
  actorId: number | null;
  runId?: number | null;
  /** The engine's now: a claim is stamped with it, as is its confirmation (markDone). */
  at: Date;
  /**
   * When the statuses the run decided on were read (its snapshot's time): a turn-off of the same
   * object confirmed since then is one this run did not see, so it does not claim the object again.
   */
  readAt: Date;
}

/** A planned turn-off with the reason its activity entry will carry. */
export type ReasonedAction = PlannedAction & { reason: Record<string, string> };

/** A turn_on rule's planned switch-on of a paused ad or campaign, with its entry's reason. */
export interface PlannedTurnOn {
  objectId: string;
  level: 'ad' | 'campaign';
  reason: Record<string, string>;
}

/** A revive a run decided on: the ad to turn back on and the turn-off entry it reverses. */
export interface PlannedRevive {
  objectId: string;
  reason: Record<string, string>;
  reverses: number;
}

/** A budget change that passed the claim's checks (../run/budgetClaims.ts), as its pending entry. */
export interface BudgetClaim {
  scope: RunScope;
  action: string;
  objectId: string;
  objectType: string;
  reason: Record<string, string>;
  /** Daily budgets in cents. */
  before: number;
  after: number;
  reverses: number | null;
}

/** What an engine mail sent once is claimed for (../alerts/mailOnce.ts): one per rule, slot and kind. */
export interface MailClaim {
  ruleId: number;
  folderId: number;
  slot: Date;
  action: 'alert_sent' | 'run_held';
  runId?: number | null;
}

export interface NewEntry {
  ruleId: number | null;
  folderId: number | null;
  action: string;
  adId?: string | null;
  objectType?: string | null;
  reason: Record<string, string>;
  slot?: Date | null;
  actorId?: number | null;
  runId?: number | null;
}

/** Entries keep their stored mail with the Message-ID it went out with. */
export type StoredMail = NonNullable<ActivityRow['mail']>;

export function createActivityStore(db: Database) {
  /** Entries of these actions that these rules' slot claimed (pending) and no attempt confirmed: a retry sends them again. */
  function pendingEntriesOf(ruleIds: number[], slot: Date, actions: readonly string[]): Promise<ActivityRow[]> {
    if (!ruleIds.length) return Promise.resolve([]);
    return db
      .select()
      .from(ruleActivity)
      .where(
        and(
          inArray(ruleActivity.ruleId, ruleIds),
          eq(ruleActivity.slot, slot),
          eq(ruleActivity.state, 'pending'),
          inArray(ruleActivity.action, [...actions]),
        ),
      );
  }

  /**
   * `pendingTurnOffs` of many rules of one slot. Only turn-offs: a held run's alert or a digest
   * claimed for the same hour is pending too until its mail is out, and is no status change.
   */
  const pendingTurnOffsOf = (ruleIds: number[], slot: Date) => pendingEntriesOf(ruleIds, slot, TURN_OFF_ACTIONS);

  /**
   * `claimTurnOffs` for the runs of a batch in one transaction: exactly once across runs, slots and
   * processes. Under a lock per object (taken in one order, so two claimers never deadlock) it
   * looks for a turn-off of the object that is still pending — in flight, whoever started it, until
   * it is settled — or confirmed since the run read its statuses, and claims only the others. The
   * look and the claim are one step for every claimer of the object, whatever its snapshot. Within
   * the batch the first run to plan an object claims it.
   */
  async function claimTurnOffsOf(runs: { scope: RunScope; actions: ReasonedAction[] }[]): Promise<ActivityRow[]> {
    const wanted: { scope: RunScope; action: ReasonedAction }[] = [];
    const seen = new Set<string>();
    for (const { scope, actions } of runs)
      for (const action of actions)
        if (!seen.has(action.objectId)) {
          seen.add(action.objectId);
          wanted.push({ scope, action });
        }
    if (!wanted.length) return [];
    const ids = wanted.map((w) => w.action.objectId);
    const earliestRead = new Date(Math.min(...wanted.map((w) => w.scope.readAt.getTime())));
    return db.transaction(async (tx) => {
      await lockObjects(tx, 'turn-off', ids);
      const existing = await tx
        .select({ adId: ruleActivity.adId, state: ruleActivity.state, createdAt: ruleActivity.createdAt })
        .from(ruleActivity)
        .where(
          and(
            inArray(ruleActivity.action, [...TURN_OFF_ACTIONS]),
            inArray(ruleActivity.adId, ids),
            isNull(ruleActivity.undoneAt),
            or(eq(ruleActivity.state, 'pending'), gte(ruleActivity.createdAt, earliestRead)),
          ),
        );
      const actedOn = (objectId: string, readAt: Date) =>
        existing.some((e) => e.adId === objectId && (e.state === 'pending' || e.createdAt >= readAt));
      const values = wanted
        .filter(({ scope, action }) => !actedOn(action.objectId, scope.readAt))
        .map(({ scope, action: a }) => ({
          ruleId: scope.ruleId,
          folderId: scope.folderId,
          action: a.action,
          adId: a.objectId,
          objectType: a.action === 'turn_off_campaign' ? 'campaign' : 'ad',
          reason: a.reason,
          state: 'pending',
          slot: scope.slot,
          snapshotId: scope.snapshotId,
          actorId: scope.actorId,
          runId: scope.runId ?? null,
          createdAt: scope.at,
        }));
      if (!values.length) return [];
      return tx.insert(ruleActivity).values(values).onConflictDoNothing().returning();
    });
  }

  /** Several finished entries in one statement, in order. */
  async function recordEntries(entries: NewEntry[]): Promise<ActivityRow[]> {
    if (!entries.length) return [];
    return db
      .insert(ruleActivity)
      .values(
        entries.map((entry) => ({
          ruleId: entry.ruleId,
          folderId: entry.folderId,
          action: entry.action,
          adId: entry.adId ?? null,
          objectType: entry.objectType ?? null,
          reason: entry.reason,
          state: 'done',
          slot: entry.slot ?? null,
          actorId: entry.actorId ?? null,
          runId: entry.runId ?? null,
        })),
      )
      .returning();
  }

  return {
    pendingEntriesOf,
    pendingTurnOffsOf,

    /** Turn-offs of this rule's slot claimed by an earlier attempt that did not live to confirm them. */
    pendingTurnOffs: (ruleId: number, slot: Date) => pendingTurnOffsOf([ruleId], slot),

    /**
     * Objects turned off since a snapshot was taken, or being turned off (a pending claim, whenever it
     * was made): the snapshot's statuses are stale for them.
     */
    async turnedOffSince(objectIds: string[], since: Date): Promise<Set<string>> {
      if (!objectIds.length) return new Set();
      const rows = await db
        .select({ adId: ruleActivity.adId })
        .from(ruleActivity)
        .where(
          and(
            inArray(ruleActivity.action, [...TURN_OFF_ACTIONS]),
            inArray(ruleActivity.adId, objectIds),
            or(eq(ruleActivity.state, 'pending'), gte(ruleActivity.createdAt, since)),
            isNull(ruleActivity.undoneAt),
          ),
        );
      return new Set(rows.map((r) => r.adId!));
    },

    /** One entry, whatever its state. */
    async entryById(id: number): Promise<ActivityRow | undefined> {
      const [entry] = await db.select().from(ruleActivity).where(eq(ruleActivity.id, id));
      return entry;
    },

    /** The action and reason of each of these entries (a revive reads the turn-offs it may reverse). */
    reasonsOf: (ids: number[]) =>
      db
        .select({ id: ruleActivity.id, reason: ruleActivity.reason, action: ruleActivity.action })
        .from(ruleActivity)
        .where(inArray(ruleActivity.id, ids)),

    /**
     * Claims each planned turn-off as a pending entry. An object already being turned off, or turned
     * off since the run read its statuses, is left out (see `claimTurnOffsOf`).
     */
    claimTurnOffs: (scope: RunScope, actions: ReasonedAction[]) => claimTurnOffsOf([{ scope, actions }]),
    claimTurnOffsOf,

    /**
     * Claims a turn_on rule's switch-ons, pending, in one transaction: under a lock per object (the
     * turn-offs' lock), an object with a switch in flight (pending) or made since the run read its
     * statuses — any rule's turn-off or turn-on, an undo, a revive — is left out.
     */
    async claimTurnOns(scope: RunScope, plans: PlannedTurnOn[]): Promise<ActivityRow[]> {
      const ids = plans.map((p) => p.objectId);
      return db.transaction(async (tx) => {
        await lockObjects(tx, 'turn-off', ids);
        const moved = await tx
          .select({ adId: ruleActivity.adId })
          .from(ruleActivity)
          .where(
            and(
              inArray(ruleActivity.adId, ids),
              inArray(ruleActivity.action, SWITCH_ACTIONS),
              or(eq(ruleActivity.state, 'pending'), gte(ruleActivity.createdAt, scope.readAt)),
            ),
          );
        const skip = new Set(moved.map((m) => m.adId));
        const values = plans
          .filter((p) => !skip.has(p.objectId))
          .map((p) => ({
            ruleId: scope.ruleId,
            folderId: scope.folderId,
            action: p.level === 'campaign' ? 'rule_turn_on_campaign' : 'rule_turn_on_ad',
            adId: p.objectId,
            objectType: p.level,
            reason: p.reason,
            state: 'pending',
            slot: scope.slot,
            snapshotId: scope.snapshotId,
            actorId: scope.actorId,
            runId: scope.runId ?? null,
            createdAt: scope.at,
          }));
        return values.length ? tx.insert(ruleActivity).values(values).returning() : [];
      });
    },

    /** Claims revives, pending: the unique index allows one per turn-off reversed, whoever gets there first. */
    async claimRevives(
      scope: Pick<RunScope, 'ruleId' | 'folderId' | 'slot' | 'actorId' | 'runId'>,
      revives: PlannedRevive[],
    ): Promise<ActivityRow[]> {
      if (!revives.length) return [];
      return db
        .insert(ruleActivity)
        .values(
          revives.map((d) => ({
            ruleId: scope.ruleId,
            folderId: scope.folderId,
            action: 'revive_ad',
            adId: d.objectId,
            objectType: 'ad',
            reason: d.reason,
            state: 'pending',
            slot: scope.slot,
            actorId: scope.actorId,
            runId: scope.runId ?? null,
            reversesId: d.reverses,
          })),
        )
        .onConflictDoNothing()
        .returning();
    },

    /**
     * Revives of the rule's slot still pending; with a run id, only that run's (its own earlier
     * attempt's: a Run now racing the scheduled run leaves their claims to it).
     */
    pendingRevives: (ruleId: number, slot: Date, runId: number | null) =>
      db
        .select()
        .from(ruleActivity)
        .where(
          and(
            eq(ruleActivity.ruleId, ruleId),
            eq(ruleActivity.slot, slot),
            eq(ruleActivity.action, 'revive_ad'),
            eq(ruleActivity.state, 'pending'),
            runId === null ? undefined : eq(ruleActivity.runId, runId),
          ),
        ),

    /**
     * Claims one budget change, pending, in the caller's transaction (which holds the object's lock
     * and read its history); undefined when the unique indexes already have it.
     */
    async claimBudgetChange(tx: Pick<Database, 'insert'>, claim: BudgetClaim): Promise<ActivityRow | undefined> {
      const { scope } = claim;
      const [entry] = await tx
        .insert(ruleActivity)
        .values({
          ruleId: scope.ruleId,
          folderId: scope.folderId,
          action: claim.action,
          adId: claim.objectId,
          objectType: claim.objectType,
          reason: claim.reason,
          state: 'pending',
          slot: scope.slot,
          snapshotId: scope.snapshotId,
          actorId: scope.actorId,
          runId: scope.runId ?? null,
          createdAt: scope.at,
          budgetBefore: claim.before,
          budgetAfter: claim.after,
          reversesId: claim.reverses,
        })
        .onConflictDoNothing()
        .returning();
      return entry;
    },

    /**
     * A raising rule's raises since `since` that are done, not undone and not restored yet, for the
     * roll-backs it may owe.
     */
    raisesToRollBack(ruleId: number, since: Date): Promise<ActivityRow[]> {
      const restores = sql`(select 1 from ${ruleActivity} r where r.reverses_id = ${ruleActivity.id} and r.action = 'restore_budget')`;
      return db
        .select()
        .from(ruleActivity)
        .where(
          and(
            eq(ruleActivity.ruleId, ruleId),
            eq(ruleActivity.action, 'raise_budget'),
            eq(ruleActivity.state, 'done'),
            gte(ruleActivity.createdAt, since),
            isNull(ruleActivity.undoneAt),
            sql`not exists ${restores}`,
          ),
        );
    },

    /** The daily budget (cents) each folder's rules added since `since`, claimed or made. */
    async budgetAddedSince(folderIds: number[], since: Date): Promise<Map<number, number>> {
      if (!folderIds.length) return new Map();
      const rows = await db
        .select({
          folderId: ruleActivity.folderId,
          added: sql<string>`coalesce(sum(${ruleActivity.budgetAfter} - ${ruleActivity.budgetBefore}), 0)`,
        })
        .from(ruleActivity)
        .where(
          and(
            inArray(ruleActivity.folderId, folderIds),
            eq(ruleActivity.action, 'raise_budget'),
            inArray(ruleActivity.state, ['pending', 'done']),
            gte(ruleActivity.createdAt, since),
          ),
        )
        .groupBy(ruleActivity.folderId);
      return new Map(rows.map((r) => [r.folderId!, Number(r.added)]));
    },

    /**
     * Confirms switches made at `at`, the engine's clock: the cool-down, the revive window and the
     * flapping alert compare these times with the engine's now, so both come from one clock.
     */
    async markDone(ids: number[], at: Date): Promise<void> {
      if (!ids.length) return;
      await db.update(ruleActivity).set({ state: 'done', createdAt: at }).where(inArray(ruleActivity.id, ids));
    },

    /**
     * Confirms turn-offs whose sending was not seen to end (the run's process stopped) and that the
     * ad platform shows made, each reason saying how it was confirmed.
     */
    async confirmTurnOffs(entries: ActivityRow[], at: Date, how: string): Promise<void> {
      for (const entry of entries)
        await db
          .update(ruleActivity)
          .set({ state: 'done', createdAt: at, reason: { ...entry.reason, Confirmed: how } })
          .where(and(eq(ruleActivity.id, entry.id), eq(ruleActivity.state, 'pending')));
    },

    /** A switch that did not happen becomes an error entry saying so (and frees its claim). */
    async markFailed(entry: ActivityRow, error: string, at: Date): Promise<void> {
      const wanted = entry.action.replaceAll('_', ' ');
      await db
        .update(ruleActivity)
        .set({
          action: 'error',
          state: 'done',
          createdAt: at,
          reason: { ...entry.reason, Error: `Could not ${wanted}: ${error}` },
        })
        .where(eq(ruleActivity.id, entry.id));
    },

    recordEntries,

    async recordEntry(entry: NewEntry): Promise<ActivityRow> {
      const [row] = await recordEntries([entry]);
      return row!;
    },

    /** A held run's entry (run_held) when no mail goes with it; null when the slot already has one. */
    async recordHeldRun(held: {
      ruleId: number;
      folderId: number;
      slot: Date;
      reason: Record<string, string>;
      runId: number;
    }): Promise<ActivityRow | null> {
      const [entry] = await db
        .insert(ruleActivity)
        .values({
          ruleId: held.ruleId,
          folderId: held.folderId,
          action: 'run_held',
          slot: held.slot,
          reason: held.reason,
          runId: held.runId,
        })
        .onConflictDoNothing()
        .returning();
      return entry ?? null;
    },

    /**
     * An object's flapping alert of a UTC day (`day`): not one rule's, any rules, undo or hand may
     * have switched it. Null when the day already has it (a unique index): whoever wrote it alerts.
     */
    async recordFlapping(flapping: {
      folderId: number;
      objectId: string;
      reason: Record<string, string>;
      day: Date;
      runId: number | null;
    }): Promise<ActivityRow | null> {
      const [entry] = await db
        .insert(ruleActivity)
        .values({
          ruleId: null,
          folderId: flapping.folderId,
          action: 'flapping',
          adId: flapping.objectId,
          reason: flapping.reason,
          slot: flapping.day,
          runId: flapping.runId,
        })
        .onConflictDoNothing()
        .returning();
      return entry ?? null;
    },

    /**
     * The pauses Meta made itself that a snapshot shows (paused_by_meta), in the caller's
     * transaction (which holds the objects' lock and read their last switches).
     */
    recordMetaPauses: (
      tx: Pick<Database, 'insert'>,
      input: {
        folderId: number;
        slot: Date;
        snapshotId: number;
        pauses: { objectId: string; objectType: string; reason: Record<string, string> }[];
      },
    ): Promise<ActivityRow[]> =>
      tx
        .insert(ruleActivity)
        .values(
          input.pauses.map((pause) => ({
            ruleId: null,
            folderId: input.folderId,
            action: 'paused_by_meta',
            adId: pause.objectId,
            objectType: pause.objectType,
            reason: pause.reason,
            slot: input.slot,
            snapshotId: input.snapshotId,
          })),
        )
        .returning(),

    /**
     * Claims an engine mail before it goes out: its entry written pending (one per rule, slot and
     * kind: rule_activity_mail_once), or the one an earlier attempt wrote.
     */
    async claimMail(mail: MailClaim): Promise<ActivityRow> {
      const [claimed] = await db
        .insert(ruleActivity)
        .values({
          ruleId: mail.ruleId,
          folderId: mail.folderId,
          action: mail.action,
          slot: mail.slot,
          state: 'pending',
          reason: {},
          runId: mail.runId ?? null,
        })
        .onConflictDoNothing()
        .returning();
      if (claimed) return claimed;
      const where = and(
        eq(ruleActivity.ruleId, mail.ruleId),
        eq(ruleActivity.slot, mail.slot),
        eq(ruleActivity.action, mail.action),
      );
      return (await db.select().from(ruleActivity).where(where))[0]!;
    },

    /** Nothing to send after all: the mail's claim goes. */
    async withdrawMail(entryId: number): Promise<void> {
      await db.delete(ruleActivity).where(eq(ruleActivity.id, entryId));
    },

    /** Keeps the composed mail on its claim, so a retry sends exactly this one again. */
    async keepMail(entryId: number, mail: StoredMail, reason: Record<string, string>): Promise<ActivityRow> {
      const [updated] = await db
        .update(ruleActivity)
        .set({ mail, reason })
        .where(eq(ruleActivity.id, entryId))
        .returning();
      return updated!;
    },

    async markMailSent(entryId: number): Promise<ActivityRow> {
      const [done] = await db
        .update(ruleActivity)
        .set({ state: 'done' })
        .where(eq(ruleActivity.id, entryId))
        .returning();
      return done!;
    },

    /** Claims the undo of a turn-off: of two users pressing Undo at once, one gets true. */
    async claimUndo(entryId: number, at: Date): Promise<boolean> {
      const claimed = await db
        .update(ruleActivity)
        .set({ undoneAt: at })
        .where(and(eq(ruleActivity.id, entryId), isNull(ruleActivity.undoneAt)))
        .returning({ undoneAt: ruleActivity.undoneAt });
      return claimed.length > 0;
    },

    /** The rule leaves the object alone from now on (an undo's exemption); kept when it already does. */
    async exempt(ruleId: number, objectId: string, createdBy: number | null): Promise<void> {
      await db.insert(ruleExemptions).values({ ruleId, objectId, createdBy }).onConflictDoNothing();
    },

    /** The rule may act on the object again; false when it was not exempt. */
    async removeExemption(ruleId: number, objectId: string): Promise<boolean> {
      const removed = await db
        .delete(ruleExemptions)
        .where(and(eq(ruleExemptions.ruleId, ruleId), eq(ruleExemptions.objectId, objectId)))
        .returning();
      return removed.length > 0;
    },

    /** Each rule's exempt objects (a rule with none has no entry). */
    async exemptObjectsOf(ruleIds: number[]): Promise<Map<number, Set<string>>> {
      const exempt = new Map<number, Set<string>>();
      if (!ruleIds.length) return exempt;
      const rows = await db
        .select({ ruleId: ruleExemptions.ruleId, objectId: ruleExemptions.objectId })
        .from(ruleExemptions)
        .where(inArray(ruleExemptions.ruleId, ruleIds));
      for (const row of rows) {
        const own = exempt.get(row.ruleId);
        if (own) own.add(row.objectId);
        else exempt.set(row.ruleId, new Set([row.objectId]));
      }
      return exempt;
    },
  };
}

export type ActivityStore = ReturnType<typeof createActivityStore>;
