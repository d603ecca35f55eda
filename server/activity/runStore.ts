/** Reading run records: a rule's runs, newest first, and one run with what it looked at. */
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../db/client';
import { ruleRuns, rules, users } from '../db/schema/index';
import { actorName } from '../audit/log';
import type { PageRequest, Slice } from '../http/pagination';
import { expandObjects, type StoredDetails } from '../judgement/runRecord';
import type { RuleRunDto, RunOutcome, RunTrigger } from '../../shared/contracts';

/** Kinds that are runs of the rule (an alert is a mail, not a run). */
const RUN_KINDS = ['run', 'manual', 'approval'];

type RunRow = typeof ruleRuns.$inferSelect;
type UserRow = typeof users.$inferSelect;

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

function runDto(row: RunRow, decider: UserRow | null, full: boolean): RuleRunDto {
  const details = row.details as StoredDetails | null;
  const dto: RuleRunDto = {
    id: row.id,
    rule_id: row.ruleId,
    slot: iso(row.slot)!,
    started_at: iso(row.startedAt)!,
    finished_at: iso(row.finishedAt),
    trigger: (row.trigger ?? (row.kind === 'manual' ? 'run_now' : 'schedule')) as RunTrigger,
    outcome: (row.outcome ??
      (row.status === 'failed' ? 'failed' : row.status === 'running' ? 'running' : 'done')) as RunOutcome,
    note: row.note,
    error: row.error,
    counts: row.counts ?? {},
    decision: row.outcome === 'held' ? ((row.decision as 'approved' | 'dismissed' | null) ?? 'pending') : null,
    decided_by: decider
      ? actorName({ id: decider.id, first_name: decider.firstName, last_name: decider.lastName, email: decider.email })
      : null,
    decided_at: iso(row.decidedAt),
  };
  if (!full) return dto;
  return {
    ...dto,
    objects: expandObjects(details),
    planned: (details?.planned ?? []).map((a) => ({
      action: a.action,
      ad_id: a.objectId,
      campaign_id: a.campaignId,
      task: a.task,
      reason: a.reason,
    })),
    problems: details?.problems ?? [],
    limits: details?.limits
      ? {
          affected: details.limits.affected,
          delivering: details.limits.delivering,
          actions: details.limits.actions,
          max_share: details.limits.maxShare,
          max_actions: details.limits.maxActions,
          ...(details.limits.addedDaily !== undefined
            ? {
                added_daily: details.limits.addedDaily / 100,
                max_daily_increase:
                  details.limits.maxDailyIncrease == null ? null : details.limits.maxDailyIncrease / 100,
              }
            : {}),
        }
      : null,
    ...(details?.budgets?.length ? { budget_changes: details.budgets, money: details.money ?? null } : {}),
  };
}

export async function ruleExists(db: Database, ruleId: number): Promise<boolean> {
  const [row] = await db.select({ id: rules.id }).from(rules).where(eq(rules.id, ruleId));
  return Boolean(row);
}

export async function listRuns(db: Database, ruleId: number, paging: PageRequest): Promise<Slice<RuleRunDto>> {
  const where = and(eq(ruleRuns.ruleId, ruleId), inArray(ruleRuns.kind, RUN_KINDS));
  const [rows, [total]] = await Promise.all([
    db
      .select({ run: ruleRuns, decider: users })
      .from(ruleRuns)
      .leftJoin(users, eq(users.id, ruleRuns.decidedBy))
      .where(where)
      .orderBy(desc(ruleRuns.startedAt), desc(ruleRuns.id))
      .limit(paging.limit)
      .offset(paging.offset),
    db.select({ n: count() }).from(ruleRuns).where(where),
  ]);
  return { count: total?.n ?? 0, results: rows.map((r) => runDto(r.run, r.decider, false)) };
}

export async function findRun(db: Database, runId: number): Promise<RuleRunDto | null> {
  const [row] = await db
    .select({ run: ruleRuns, decider: users })
    .from(ruleRuns)
    .leftJoin(users, eq(users.id, ruleRuns.decidedBy))
    .where(and(eq(ruleRuns.id, runId), inArray(ruleRuns.kind, RUN_KINDS)));
  return row ? runDto(row.run, row.decider, true) : null;
}

/** A rule's runs over one database, as the engine's routes read them. */
export function createRunStore(db: Database) {
  return {
    ruleExists: (ruleId: number) => ruleExists(db, ruleId),
    list: (ruleId: number, paging: PageRequest) => listRuns(db, ruleId, paging),
    find: (runId: number) => findRun(db, runId),
  };
}
