/** The engine's reads of folders and rules (tables of the folders-and-rules area). */
import type { BudgetLimits } from '../../shared/budgetLimits';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../db/client';
import { folders, metaAdAccounts, ruleItems, rules } from '../db/schema/index';
import type { EngineRule, RuleItem } from '../judgement/ruleShape';
import { readJudging } from '../../shared/judging';
import { readBudgetLimits } from '../../shared/budgetLimits';
import { readStoredAction, readStoredConditions } from '../rules/ruleConditionFields';

/** What the scan needs to decide which slots are due: no items. */
export interface ScheduledRule {
  id: number;
  timezone: string;
  schedule: boolean[][];
  alertSchedule: boolean[];
  updatedAt: Date;
  /** The folder's ad account: the scan enqueues one run job per account and slot. */
  adAccountId: string;
}

export interface LoadedEngineRule extends EngineRule {
  isActive: boolean;
  notifyOnly: boolean;
  isDeleted: boolean;
  timezone: string;
  /** budgetLimits: the folder's budget limits, whole (readBudgetLimits); absent in rules built by tests. */
  folder: {
    id: number;
    name: string;
    isDeleted: boolean;
    budgetLimits?: BudgetLimits;
    /** Who receives the folder's mail alerts; empty or absent: the default recipients (ALERT_EMAILS). */
    alertEmails?: string[];
  };
  account: { adAccountId: string; accountName: string; currency: string; timezone: string };
  /**
   * What of the stored rule no longer reads (a shape changed since it was saved), each with why:
   * "conditions.conditions.0.window: Choose a window: …". That part reads as null and the rule runs
   * without it. Absent in rules built by tests.
   */
  unreadable?: string[];
}

/** Active rules of live folders. */
export async function scheduledRules(db: Database): Promise<ScheduledRule[]> {
  return db
    .select({
      id: rules.id,
      timezone: rules.timezone,
      schedule: rules.schedule,
      alertSchedule: rules.alertSchedule,
      updatedAt: rules.updatedAt,
      adAccountId: folders.adAccountId,
    })
    .from(rules)
    .innerJoin(folders, eq(folders.id, rules.folderId))
    .where(and(eq(rules.isActive, true), eq(rules.isDeleted, false), eq(folders.isDeleted, false)));
}

export async function loadEngineRule(db: Database, id: number): Promise<LoadedEngineRule | null> {
  return (await loadEngineRules(db, [id])).get(id) ?? null;
}

/**
 * Rules with their folder, account and items, three statements however many (a run batch loads
 * its rules at once). Folders are looked up by id rather than joined: without statistics (PGlite)
 * the join hashes every folder for each batch.
 */
export async function loadEngineRules(db: Database, ids: number[]): Promise<Map<number, LoadedEngineRule>> {
  const loaded = new Map<number, LoadedEngineRule>();
  if (!ids.length) return loaded;
  const [rows, items] = await Promise.all([
    db
      .select({
        id: rules.id,
        name: rules.name,
        isActive: rules.isActive,
        notifyOnly: rules.notifyOnly,
        isDeleted: rules.isDeleted,
        timezone: rules.timezone,
        folderId: rules.folderId,
        judging: rules.judging,
        conditions: rules.conditions,
        action: rules.action,
      })
      .from(rules)
      .where(inArray(rules.id, ids)),
    db
      .select({
        ruleId: ruleItems.ruleId,
        type: ruleItems.type,
        name: ruleItems.name,
        values: ruleItems.values,
        isActive: ruleItems.isActive,
      })
      .from(ruleItems)
      .where(inArray(ruleItems.ruleId, ids))
      .orderBy(asc(ruleItems.ruleId), asc(ruleItems.position), asc(ruleItems.id)),
  ]);
  if (!rows.length) return loaded;
  const folderRows = await db
    .select({
      id: folders.id,
      name: folders.name,
      isDeleted: folders.isDeleted,
      budgetLimits: folders.budgetLimits,
      alertEmails: folders.alertEmails,
      adAccountId: folders.adAccountId,
      accountName: metaAdAccounts.accountName,
      currency: metaAdAccounts.currency,
      accountZone: metaAdAccounts.timezoneName,
    })
    .from(folders)
    .leftJoin(metaAdAccounts, eq(metaAdAccounts.adAccountId, folders.adAccountId))
    .where(inArray(folders.id, [...new Set(rows.map((r) => r.folderId))]));
  const folderOf = new Map(folderRows.map((f) => [f.id, f]));
  const itemsOf = new Map<number, typeof items>();
  for (const i of items) {
    const own = itemsOf.get(i.ruleId);
    if (own) own.push(i);
    else itemsOf.set(i.ruleId, [i]);
  }
  const item = (i: (typeof items)[number]): RuleItem => ({ name: i.name, values: i.values, is_active: i.isActive });
  for (const row of rows) {
    const own = itemsOf.get(row.id) ?? [];
    const folder = folderOf.get(row.folderId);
    if (!folder) continue; // the folder went between the two reads: the rule is gone with it
    const conditions = readStoredConditions(row.conditions);
    const action = readStoredAction(row.action);
    loaded.set(row.id, {
      id: row.id,
      name: row.name,
      isActive: row.isActive,
      notifyOnly: row.notifyOnly,
      isDeleted: row.isDeleted || folder.isDeleted,
      timezone: row.timezone,
      judging: readJudging(row.judging),
      conditions: conditions.value,
      action: action.value,
      unreadable: [conditions.error, action.error].filter((e): e is string => !!e),
      rule_filter: own.filter((i) => i.type === 'rule_filter').map(item),
      rule_task: own.filter((i) => i.type === 'rule_task').map(item),
      folder: {
        id: folder.id,
        name: folder.name,
        isDeleted: folder.isDeleted,
        budgetLimits: readBudgetLimits(folder.budgetLimits),
        alertEmails: folder.alertEmails,
      },
      account: {
        adAccountId: folder.adAccountId,
        accountName: folder.accountName ?? folder.adAccountId,
        currency: folder.currency ?? 'USD',
        timezone: folder.accountZone ?? 'UTC',
      },
    });
  }
  return loaded;
}
