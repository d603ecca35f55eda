import { sql } from 'drizzle-orm';
import { index, integer, json, jsonb, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { adAccountId, instant, instantNow, serialId } from './columns';
import { rules } from './rules';
import { users } from './people';

/**
 * One row per (rule, scheduled hour, kind) that was taken up: the exactly-once ledger of the rule
 * engine. kind: run | alert | manual | approval. status: running | done | failed | superseded (a
 * missed slot of today folded into a later catch-up run).
 *
 * A run (kind run, manual or approval) is also the record that explains itself: why it ran
 * (trigger), how it ended (outcome), its counts, and per object the metrics read and each task's
 * verdict (details, compact: see server/judgement/runRecord.ts). Pruned after RUN_HISTORY_DAYS.
 */
export const ruleRuns = pgTable(
  'rule_runs',
  {
    id: serial('id').notNull(),
    ruleId: integer('rule_id')
      .notNull()
      .references(() => rules.id, { onDelete: 'cascade' }),
    slot: instant('slot').notNull(),
    kind: text('kind').notNull().default('run'),
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(1),
    startedAt: instantNow('started_at'),
    /**
     * Renewed every few seconds by the process running the attempt (server/run/runHeartbeat.ts):
     * a running attempt silent for longer than the lease belongs to a process that died, and is
     * taken over (a retry) or settled (server/run/orphanedRuns.ts). Null: never renewed, read as started_at.
     */
    heartbeatAt: instant('heartbeat_at'),
    finishedAt: instant('finished_at'),
    /** What happened, for the server log and support: "3 ads turned off", "caught up on 2:00 AM". */
    note: text('note'),
    error: text('error'),
    /** schedule | run_now | catch_up | approval */
    trigger: text('trigger'),
    /** done | held | failed | partly_failed | notify_only | nothing_to_do */
    outcome: text('outcome'),
    counts: jsonb('counts').$type<Record<string, number>>(),
    details: jsonb('details'),
    snapshotId: integer('snapshot_id'),
    /** A held run: approved | dismissed, by whom and when (set once). */
    decision: text('decision'),
    decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: instant('decided_at'),
  },
  (t) => [
    primaryKey({ columns: [t.ruleId, t.slot, t.kind] }),
    index('rule_runs_slot_idx').on(t.slot),
    uniqueIndex('rule_runs_id_unique').on(t.id),
    index('rule_runs_rule_started_idx').on(t.ruleId, t.startedAt),
    // The orphan sweep looks only at running attempts (a handful among a month of runs).
    index('rule_runs_running_idx').on(t.id).where(sql`status = 'running'`),
    // Held runs waiting for Approve or Dismiss (the agency overview counts them per folder): a handful among a month of runs.
    index('rule_runs_held_waiting_idx').on(t.ruleId).where(sql`outcome = 'held' and decision is null`),
  ],
);

/**
 * What the ad platform looked like for one ad account at one slot (statuses + lifetime ad
 * insights), fetched once and shared by every rule of the account due then. The row also
 * serialises the fetch across workers: the first claims it (state fetching, with a lease).
 */
export const accountSnapshots = pgTable(
  'account_snapshots',
  {
    id: serialId(),
    adAccountId: adAccountId().notNull(),
    slot: instant('slot').notNull(),
    state: text('state').notNull(),
    leaseUntil: instant('lease_until'),
    fetchedAt: instant('fetched_at'),
    data: jsonb('data'),
    error: text('error'),
  },
  (t) => [
    uniqueIndex('account_snapshots_account_slot_unique').on(t.adAccountId, t.slot),
    index('account_snapshots_slot_idx').on(t.slot),
  ],
);

/**
 * Rule activity (`/api/rule_log/`): what the engine did and why. A turn-off is first written as
 * `pending` (claimed) and becomes `done` once the platform confirmed it; only done entries are listed.
 * An object is turned off at most once per snapshot (the partial unique index), whichever rule,
 * worker or retry gets there first.
 */
export const ruleActivity = pgTable(
  'rule_activity',
  {
    id: serialId(),
    createdAt: instantNow('created_at'),
    ruleId: integer('rule_id').references(() => rules.id, { onDelete: 'set null' }),
    /**
     * The entry's folder: its rule's (kept so by triggers when a rule moves, migration 0020), the
     * one it was written with once the rule is gone, null once that folder is deleted for good.
     * The Activity's Client / Ad account sort joins folders by it, so renaming a folder rewrites no entry.
     */
    folderId: integer('folder_id'),
    /** turn_off_ad | turn_off_campaign | turn_on_ad | turn_on_campaign | raise_budget | lower_budget | restore_budget | alert_sent | error … */
    action: text('action').notNull(),
    /** The ad id, or the campaign id of a campaign action. */
    adId: text('ad_id'),
    objectType: text('object_type'),
    /** json, not jsonb: the keys keep the order they were written in (metric, then context). */
    reason: json('reason').$type<Record<string, string>>().notNull().default({}),
    state: text('state').notNull().default('done'),
    slot: instant('slot'),
    snapshotId: integer('snapshot_id'),
    /** The user who ran it by hand or undid it; null for the scheduler. */
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    /** Set on a turn-off once a user undid it (the undo is its own entry). */
    undoneAt: instant('undone_at'),
    /** The run (rule_runs.id) that wrote the entry. */
    runId: integer('run_id'),
    /** A revive: the turn-off entry it reverses (at most one revive per turn-off). */
    reversesId: integer('reverses_id'),
    /** A budget change (raise_budget, lower_budget, restore_budget): the daily budget before and after, in cents. */
    budgetBefore: integer('budget_before'),
    budgetAfter: integer('budget_after'),
    /** A mail's stored content (alert digests, held-run alerts): a retry sends exactly this again. */
    mail: json('mail').$type<{ to: string; subject: string; text: string; html: string; messageId: string }>(),
    /**
     * The entry's own searched text (ad id, action, reason) for one trigram index (migration 0012).
     * Rule, folder and ad account names are not copied here: they change, and the search finds
     * them in their own small tables (server/activity/ruleLogStore.ts).
     */
    searchText: text('search_text').generatedAlwaysAs(
      sql`coalesce(ad_id, '') || E'\\n' || action || E'\\n' || reason::text`,
    ),
    /**
     * The current name of the entry's rule, kept by triggers on rules (migration 0012), never
     * written by the app: the Activity's Rule sort walks an index on it.
     */
    ruleSort: text('rule_sort'),
  },
  (t) => [
    index('rule_activity_created_idx').on(t.createdAt, t.id),
    index('rule_activity_rule_idx').on(t.ruleId, t.createdAt),
    index('rule_activity_folder_idx').on(t.folderId, t.createdAt),
    // The Activity's Action and Ad ID sorts, ties broken by id (rule and folder sorts follow joins);
    // the second also finds an ad's entries. With a search, the Ad ID sort walks an index carrying
    // the search text (migration 0029: drizzle cannot declare INCLUDE).
    index('rule_activity_action_idx').on(t.action, t.id),
    index('rule_activity_ad_id_sort_idx').on(t.adId, t.id),
    index('rule_activity_slot_idx').on(t.ruleId, t.slot),
    uniqueIndex('rule_activity_turn_off_once')
      .on(t.snapshotId, t.adId)
      .where(sql`action in ('turn_off_ad', 'turn_off_campaign') and snapshot_id is not null`),
    // One digest per (rule, alert hour) and one alert per held run, whoever retries.
    uniqueIndex('rule_activity_mail_once')
      .on(t.ruleId, t.slot, t.action)
      .where(sql`action in ('alert_sent', 'run_held') and slot is not null`),
    index('rule_activity_run_idx').on(t.runId),
    // A turn-off is revived at most once, whichever rule run, worker or retry gets there first.
    uniqueIndex('rule_activity_revive_once').on(t.reversesId).where(sql`action = 'revive_ad'`),
    // An object's budget is changed at most once per snapshot, and a budget change restored at most once.
    uniqueIndex('rule_activity_budget_once')
      .on(t.snapshotId, t.adId)
      .where(sql`action in ('raise_budget', 'lower_budget') and snapshot_id is not null`),
    uniqueIndex('rule_activity_restore_once').on(t.reversesId).where(sql`action = 'restore_budget'`),
    // One flapping alert per object and day.
    uniqueIndex('rule_activity_flapping_once').on(t.adId, t.slot).where(sql`action = 'flapping'`),
    // The Activity lists finished entries only: its pages walk these without reading the table
    // for the state (a deep page is an index-only scan); the folder sort walks folders by name and
    // each folder's entries (server/activity/ruleLogStore.ts), the rule sort the kept rule names.
    index('rule_activity_done_created_idx').on(t.createdAt, t.id).where(sql`state = 'done'`),
    index('rule_activity_done_folder_idx').on(t.folderId, t.id).where(sql`state = 'done'`),
    index('rule_activity_done_no_folder_idx').on(t.id).where(sql`state = 'done' and folder_id is null`),
    index('rule_activity_done_rule_sort_idx').on(t.ruleSort, t.id).where(sql`state = 'done'`),
    // The rule sort with the date second, either way: walked in that order, not read a rule name's
    // whole group of entries to sort them by date.
    index('rule_activity_done_rule_time_idx').on(t.ruleSort, t.createdAt, t.id).where(sql`state = 'done'`),
    // The Action sort walks one action's entries at a time (server/activity/actionSort.ts): by id,
    // or in time either way when the date is the second key, without reading the table for the state.
    index('rule_activity_done_action_idx').on(t.action, t.id).where(sql`state = 'done'`),
    index('rule_activity_done_action_time_idx').on(t.action, t.createdAt, t.id).where(sql`state = 'done'`),
  ],
);

/** An object a user turned back on after a rule turned it off: that rule leaves it alone. */
export const ruleExemptions = pgTable(
  'rule_exemptions',
  {
    ruleId: integer('rule_id')
      .notNull()
      .references(() => rules.id, { onDelete: 'cascade' }),
    objectId: text('object_id').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: instantNow('created_at'),
  },
  (t) => [primaryKey({ columns: [t.ruleId, t.objectId] })],
);
