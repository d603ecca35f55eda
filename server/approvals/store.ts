/**
 * The approval queue: every held run still waiting for Approve or Dismiss that a person may decide
 * — its rule in one of their folders (server/people/ruleScope.ts) — with the money it would move a
 * day (server/run/moneyAtStake.ts), most money first, then longest waiting; and the check
 * Approve and Dismiss make before the engine acts: the folder in scope, and for Approve the money
 * within the approver's limit.
 *
 * A run still waiting is held, undecided, of a rule neither trashed nor switched to notify only
 * and, unless it was a Run now, still switched on (what the engine would approve, heldRuns.ts).
 */
import { and, asc, eq, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { ApprovalDto } from '../../shared/approvals';
import type { Database } from '../db/client';
import { folders, metaAdAccounts, ruleRuns, rules } from '../db/schema/index';
import { moneyAtStake, type MoneyAtStake } from '../run/moneyAtStake';
import { permissionDenied } from '../http/errors';
import type { PageRequest, Slice } from '../http/pagination';
import {
  approvalRefusal,
  assertMayEditRulesIn,
  mayEditRulesIn,
  ruleScopeFrom,
  type ScopeHolder,
} from '../people/ruleScope';

const HELD_PREFIX = /^held: /;

const waiting = and(
  eq(ruleRuns.outcome, 'held'),
  isNull(ruleRuns.decision),
  eq(rules.isDeleted, false),
  eq(folders.isDeleted, false),
  eq(rules.notifyOnly, false),
  or(eq(rules.isActive, true), eq(ruleRuns.kind, 'manual')),
);

export function createApprovalStore(db: Database) {
  const heldRuns = (where: SQL | undefined) =>
    db
      .select({
        id: ruleRuns.id,
        startedAt: ruleRuns.startedAt,
        note: ruleRuns.note,
        decision: ruleRuns.decision,
        details: ruleRuns.details,
        ruleId: rules.id,
        ruleName: rules.name,
        folderId: folders.id,
        folderName: folders.name,
        adAccountId: folders.adAccountId,
        accountName: sql<string>`coalesce(${metaAdAccounts.accountName}, ${folders.adAccountId})`,
        currency: sql<string>`coalesce(${metaAdAccounts.currency}, 'USD')`,
      })
      .from(ruleRuns)
      .innerJoin(rules, eq(rules.id, ruleRuns.ruleId))
      .innerJoin(folders, eq(folders.id, rules.folderId))
      .leftJoin(metaAdAccounts, eq(metaAdAccounts.adAccountId, folders.adAccountId))
      .where(where)
      .orderBy(asc(ruleRuns.startedAt), asc(ruleRuns.id));

  type HeldRow = Awaited<ReturnType<typeof heldRuns>>[number];

  const stakesOf = (rows: HeldRow[]) =>
    moneyAtStake(
      db,
      rows.map((r) => ({ id: r.id, adAccountId: r.adAccountId, heldAt: new Date(r.startedAt), details: r.details })),
    );

  function toDto(row: HeldRow, stake: MoneyAtStake, refusal: string | null, now: number): ApprovalDto {
    const heldAt = new Date(row.startedAt);
    return {
      id: row.id,
      rule_id: row.ruleId,
      rule_name: row.ruleName,
      folder_id: row.folderId,
      folder_name: row.folderName,
      ad_account_name: row.accountName,
      currency: row.currency,
      spend_stopped_per_day: stake.spendStopped,
      spend_estimated: stake.spendEstimated,
      budget_added_per_day: stake.budgetAdded,
      money_at_stake_per_day: stake.total,
      held_because: (row.note ?? '').replace(HELD_PREFIX, ''),
      objects: stake.objects,
      object_count: stake.objectCount,
      held_at: heldAt.toISOString(),
      waited_seconds: Math.max(0, Math.floor((now - heldAt.getTime()) / 1000)),
      may_approve: refusal === null,
      approve_refusal: refusal,
    };
  }

  /**
   * The held runs `person` may decide, most money at stake first, then the longest waiting. The
   * queue is short (runs wait at most RUN_HISTORY_DAYS, and a switched-off rule's are dismissed),
   * so it is read whole and sorted by the money, which only the history can tell.
   */
  async function list(person: ScopeHolder, { limit, offset }: PageRequest): Promise<Slice<ApprovalDto>> {
    const scope = ruleScopeFrom(person);
    const rows = (await heldRuns(waiting)).filter((row) => mayEditRulesIn(scope, row.folderId));
    const stakes = await stakesOf(rows);
    const now = Date.now();
    const queue = rows
      .map((row) => {
        const stake = stakes.get(row.id)!;
        return toDto(row, stake, approvalRefusal(scope, stake.total, row.currency), now);
      })
      .sort((a, b) => b.money_at_stake_per_day - a.money_at_stake_per_day || a.held_at.localeCompare(b.held_at));
    return { count: queue.length, results: queue.slice(offset, offset + limit) };
  }

  /**
   * Before Approve or Dismiss: 403 unless the run's rule is in one of `person`'s folders and, for
   * Approve of a run still undecided, its money at stake is within their limit. A run that is not
   * held, or no longer waits, is left to the engine (its 404 and 409).
   */
  async function assertMayDecide(person: ScopeHolder, runId: number, decision: 'approve' | 'dismiss'): Promise<void> {
    const [row] = await heldRuns(and(eq(ruleRuns.id, runId), eq(ruleRuns.outcome, 'held')));
    if (!row) return;
    await assertMayEditRulesIn(db, person, row.folderId);
    if (decision === 'dismiss' || row.decision) return;
    const stake = (await stakesOf([row])).get(row.id)!;
    const refusal = approvalRefusal(ruleScopeFrom(person), stake.total, row.currency);
    if (refusal) throw permissionDenied(refusal);
  }

  return { list, assertMayDecide };
}

export type ApprovalStore = ReturnType<typeof createApprovalStore>;
