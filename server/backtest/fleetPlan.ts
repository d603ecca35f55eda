/**
 * What a fleet's preview replays: each change's folder (its ad account, currency, zone and budget
 * limits), and each side of the change read as the single backtest reads a rule body (ruleSettings.ts:
 * the saved rule's judging, conditions and action where the body leaves them out, its exemptions),
 * with what of the history and the platform its replay needs. Checked before any replay starts:
 * a saved rule in another folder, or a side whose items cannot be tried, refuses the whole preview.
 * A folder in the trash, or unknown, is left out (an edit changes nothing there).
 */
import { and, eq, inArray } from 'drizzle-orm';
import { readBudgetLimits, type BudgetLimits } from '../../shared/budgetLimits';
import { isBudgetAction } from '../../shared/ruleActions';
import { readsOf } from '../../shared/ruleConditions';
import type { Database } from '../db/client';
import { folders, metaAdAccounts, ruleExemptions, rules } from '../db/schema/index';
import { readsOutcomes as conditionsReadOutcomes } from '../judgement/conditions/evaluateConditions';
import { readsOutcomes } from '../judgement/outcomeTasks';
import { HOUR_MS, type MetricName } from '../history/reading';
import { metricsWanted } from '../history/timeline';
import { ApiError, ValidationError } from '../http/errors';
import type { BacktestRule } from './replay';
import {
  backtestRuleOf,
  lookBackDaysOf,
  metricsRead,
  ruleItemErrors,
  settingsOf,
  type BacktestRuleBody,
  type SavedRuleSettings,
} from './ruleSettings';

/** One change of a fleet's edit: a folder's rule before and after (null: no rule on that side). */
export interface FleetChangeInput {
  folderId: number;
  ruleId: number | null;
  before: BacktestRuleBody | null;
  after: BacktestRuleBody | null;
}

/** One side of a change as its replay takes it. */
export interface PlannedSide {
  rule: BacktestRule;
  /** The metrics and the days before the span a single backtest of the rule would load. */
  wanted: MetricName[];
  lookBackDays: number;
  /** Reality's turn-ons from this instant on start a cool-down or end a revive window in the span. */
  turnOnsSinceMs: number;
  readsQuality: boolean;
  needsPlatform: boolean;
  budgetRule: boolean;
}

export interface PlannedChange {
  ruleId: number | null;
  before: PlannedSide | null;
  after: PlannedSide | null;
  /** The saved rule's exemptions and when each began. */
  exemptions: { objectId: string; sinceMs: number }[];
}

export interface PlannedFolder {
  folderId: number;
  folderName: string;
  adAccountId: string;
  accountName: string;
  currency: string;
  /** The ad account's time zone; null: unknown (each rule's own is used). */
  timezone: string | null;
  budgetLimits: BudgetLimits;
  changes: PlannedChange[];
}

const SIDES = ['before', 'after'] as const;

function sideOf(
  body: BacktestRuleBody,
  ruleId: number | null,
  saved: SavedRuleSettings | null,
  fromMs: number,
): PlannedSide | { errors: Record<string, unknown> } {
  const settings = settingsOf(body, saved);
  const errors = ruleItemErrors(body, settings);
  if (errors) return { errors };
  const rule = backtestRuleOf(body, ruleId, settings);
  const { judging, conditions, action } = settings;
  const budgetRule = Boolean(action && isBudgetAction(action.kind));
  return {
    rule,
    wanted: metricsWanted(metricsRead(rule, judging)),
    lookBackDays: lookBackDaysOf(judging, conditions),
    turnOnsSinceMs: fromMs - Math.max(judging.cooldown_hours, judging.revive_hours ?? 0) * HOUR_MS,
    readsQuality: readsOutcomes(rule) || conditionsReadOutcomes(conditions),
    needsPlatform: budgetRule || readsOf(conditions).some((r) => r.of === 'adset') || action?.level === 'adset',
    budgetRule,
  };
}

/** The folders the changes touch, in the order the changes first name them, each with its changes planned. */
export async function planFleet(
  db: Database,
  changes: readonly FleetChangeInput[],
  fromMs: number,
): Promise<PlannedFolder[]> {
  const folderIds = [...new Set(changes.map((c) => c.folderId))];
  const ruleIds = [...new Set(changes.flatMap((c) => (c.ruleId ? [c.ruleId] : [])))];
  const [folderRows, savedRows, exemptionRows] = await Promise.all([
    folderIds.length
      ? db
          .select({
            id: folders.id,
            name: folders.name,
            adAccountId: folders.adAccountId,
            accountName: metaAdAccounts.accountName,
            currency: metaAdAccounts.currency,
            timezone: metaAdAccounts.timezoneName,
            budgetLimits: folders.budgetLimits,
          })
          .from(folders)
          .leftJoin(metaAdAccounts, eq(metaAdAccounts.adAccountId, folders.adAccountId))
          .where(and(inArray(folders.id, folderIds), eq(folders.isDeleted, false)))
      : [],
    ruleIds.length
      ? db
          .select({
            id: rules.id,
            folderId: rules.folderId,
            judging: rules.judging,
            conditions: rules.conditions,
            action: rules.action,
          })
          .from(rules)
          .where(inArray(rules.id, ruleIds))
      : [],
    ruleIds.length
      ? db
          .select({ ruleId: ruleExemptions.ruleId, objectId: ruleExemptions.objectId, at: ruleExemptions.createdAt })
          .from(ruleExemptions)
          .where(inArray(ruleExemptions.ruleId, ruleIds))
      : [],
  ]);
  const savedOf = new Map(savedRows.map((r) => [r.id, r]));
  const exemptionsOf = new Map<number, PlannedChange['exemptions']>();
  for (const e of exemptionRows)
    exemptionsOf.set(e.ruleId, [
      ...(exemptionsOf.get(e.ruleId) ?? []),
      { objectId: e.objectId, sinceMs: e.at.getTime() },
    ]);
  const planned = new Map<number, PlannedFolder>();
  for (const row of folderRows)
    planned.set(row.id, {
      folderId: row.id,
      folderName: row.name,
      adAccountId: row.adAccountId,
      accountName: row.accountName ?? row.adAccountId,
      currency: row.currency ?? 'USD',
      timezone: row.timezone ?? null,
      budgetLimits: readBudgetLimits(row.budgetLimits) as BudgetLimits,
      changes: [],
    });
  for (const [index, change] of changes.entries()) {
    const folder = planned.get(change.folderId);
    if (!folder) continue;
    const saved = change.ruleId ? savedOf.get(change.ruleId) : null;
    if (change.ruleId && saved?.folderId !== change.folderId)
      throw new ValidationError({ [`changes.${index}.ruleId`]: ['This rule is not in the folder.'] });
    const sides = { before: null as PlannedSide | null, after: null as PlannedSide | null };
    for (const side of SIDES) {
      const body = change[side];
      if (!body) continue;
      const made = sideOf(body, change.ruleId, saved ?? null, fromMs);
      if ('errors' in made) throw new ApiError(400, { [`changes.${index}.${side}`]: made.errors });
      sides[side] = made;
    }
    folder.changes.push({
      ruleId: change.ruleId,
      ...sides,
      exemptions: change.ruleId ? (exemptionsOf.get(change.ruleId) ?? []) : [],
    });
  }
  return folderIds.flatMap((id) => {
    const folder = planned.get(id);
    return folder ? [folder] : [];
  });
}
