/** The engine's reads of folders and rules (tables of the folders-and-rules area, read through its store). */
import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { folders, rules } from '../db/schema/index';
import { findStoredRule, type StoredRule } from '../rules/store';
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
  notifyOnly: boolean;
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
  const stored = await findStoredRule(db, id);
  if (!stored) return null;
  const { rule, folder, account, items } = stored;
  const item = (i: StoredRule['items'][number]): RuleItem => ({
    name: i.name,
    values: i.values,
    is_active: i.isActive,
  });
  return {
    id: rule.id,
    name: rule.name,
    isActive: rule.isActive,
    notifyOnly: rule.notifyOnly,
    isDeleted: rule.isDeleted || folder.isDeleted,
    timezone: rule.timezone,
    rule_filter: items.filter((i) => i.type === 'rule_filter').map(item),
    rule_task: items.filter((i) => i.type === 'rule_task').map(item),
    folder: { id: folder.id, name: folder.name, isDeleted: folder.isDeleted },
    account: {
      adAccountId: folder.adAccountId,
      accountName: account?.accountName ?? folder.adAccountId,
      currency: account?.currency ?? 'USD',
    },
  };
}
