/** The engine's reads of folders and rules (tables of the folders-and-rules area). */
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../db/client';
import { folders, metaAdAccounts, ruleItems, rules } from '../db/schema/index';
import type { EngineRule, RuleItem } from './ruleShape';

/** What the scan needs to decide which slots are due: no items. */
export interface ScheduledRule {
  id: number;
  timezone: string;
  schedule: boolean[][];
  alertSchedule: boolean[];
  updatedAt: Date;
}

export interface LoadedEngineRule extends EngineRule {
  isActive: boolean;
  isDeleted: boolean;
  timezone: string;
  folder: { id: number; name: string; isDeleted: boolean };
  account: { adAccountId: string; accountName: string; currency: string };
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
    })
    .from(rules)
    .innerJoin(folders, eq(folders.id, rules.folderId))
    .where(and(eq(rules.isActive, true), eq(rules.isDeleted, false), eq(folders.isDeleted, false)));
}

export async function loadEngineRule(db: Database, id: number): Promise<LoadedEngineRule | null> {
  const [row] = await db
    .select({ rule: rules, folder: folders, account: metaAdAccounts })
    .from(rules)
    .innerJoin(folders, eq(folders.id, rules.folderId))
    .leftJoin(metaAdAccounts, eq(metaAdAccounts.adAccountId, folders.adAccountId))
    .where(eq(rules.id, id));
  if (!row) return null;
  const items = await db.select().from(ruleItems).where(inArray(ruleItems.ruleId, [id])).orderBy(asc(ruleItems.position), asc(ruleItems.id));
  const item = (i: (typeof items)[number]): RuleItem => ({ name: i.name, values: i.values, is_active: i.isActive });
  return {
    id: row.rule.id,
    name: row.rule.name,
    isActive: row.rule.isActive,
    isDeleted: row.rule.isDeleted || row.folder.isDeleted,
    timezone: row.rule.timezone,
    rule_filter: items.filter((i) => i.type === 'rule_filter').map(item),
    rule_task: items.filter((i) => i.type === 'rule_task').map(item),
    folder: { id: row.folder.id, name: row.folder.name, isDeleted: row.folder.isDeleted },
    account: {
      adAccountId: row.folder.adAccountId,
      accountName: row.account?.accountName ?? row.folder.adAccountId,
      currency: row.account?.currency ?? 'USD',
    },
  };
}
