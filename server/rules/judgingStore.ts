/**
 * The conflicts of live rules, read from the database (the logic is conflicts.ts): a rule's
 * candidates are the live active rules of every live folder on its ad account — its own folder's
 * and those of other folders sharing the account — read in one statement however many folders.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { folders, ruleItems, rules } from '../db/schema/index';
import { notFound } from '../http/errors';
import { readJudging, type RuleConflictDto } from '../../shared/judging';
import { readStoredAction } from './ruleConditionFields';
import { accountConflicts, type AccountConflictRule } from '../judgement/conflicts';
import type { RuleItem } from '../judgement/ruleShape';

/** Each rule id → its conflicts with the live active rules on its ad account (rules without any are absent). */
export function conflictsByRule(rules: AccountConflictRule[]): Map<number, RuleConflictDto[]> {
  const byRule = new Map<number, RuleConflictDto[]>();
  for (const conflict of accountConflicts(rules)) {
    const own = byRule.get(conflict.rule_id);
    if (own) own.push(conflict);
    else byRule.set(conflict.rule_id, [conflict]);
  }
  return byRule;
}

/** A rule's items in catalogue position, as one JSON value of the rule's row. */
const itemsOfRule = sql<(RuleItem & { type: string })[]>`(select coalesce(json_agg(json_build_object(
  'type', item.type, 'name', item.name, 'values', item.values, 'is_active', item.is_active)
  order by item.position, item.id), '[]') from ${ruleItems} as item where item.rule_id = ${rules.id})`;

const ofType = (items: (RuleItem & { type: string })[], type: string): RuleItem[] =>
  items.filter((i) => i.type === type).map(({ name, values, is_active }) => ({ name, values, is_active }));

/** The live active rules of the live folders on these ad accounts, as the conflict check reads them: one statement. */
async function conflictRulesOfAccounts(db: Database, adAccountIds: string[]): Promise<AccountConflictRule[]> {
  if (!adAccountIds.length) return [];
  const rows = await db
    .select({
      id: rules.id,
      name: rules.name,
      judging: rules.judging,
      action: rules.action,
      items: itemsOfRule,
      folderId: folders.id,
      folderName: folders.name,
      adAccountId: folders.adAccountId,
    })
    .from(rules)
    .innerJoin(folders, eq(folders.id, rules.folderId))
    .where(
      and(
        inArray(folders.adAccountId, [...new Set(adAccountIds)]),
        eq(folders.isDeleted, false),
        eq(rules.isDeleted, false),
        eq(rules.isActive, true),
      ),
    )
    .orderBy(asc(rules.id));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    isActive: true,
    isDeleted: false,
    folder: { id: row.folderId, name: row.folderName, isDeleted: false },
    account: { adAccountId: row.adAccountId },
    judging: readJudging(row.judging),
    action: readStoredAction(row.action).value,
    rule_filter: ofType(row.items, 'rule_filter'),
    rule_task: ofType(row.items, 'rule_task'),
  }));
}

/** Each rule id of the live folders on these ad accounts → its conflicts (rules without any are absent). */
async function conflictsOfAccounts(db: Database, adAccountIds: string[]): Promise<Map<number, RuleConflictDto[]>> {
  return conflictsByRule(await conflictRulesOfAccounts(db, adAccountIds));
}

/**
 * A rule's conflicts with the live active rules of every live folder on its ad account, its own
 * folder's included: two statements (the rule's account, then the account's rules). None for an
 * inactive or trashed rule; 404 for an unknown one.
 */
async function conflictsOfRule(db: Database, ruleId: number): Promise<RuleConflictDto[]> {
  const [row] = await db
    .select({ adAccountId: folders.adAccountId })
    .from(rules)
    .innerJoin(folders, eq(folders.id, rules.folderId))
    .where(eq(rules.id, ruleId));
  if (!row) throw notFound();
  return (await conflictsOfAccounts(db, [row.adAccountId])).get(ruleId) ?? [];
}

/** The conflicts over one database, as the judging routes and the folder rows read them. */
export function createJudgingStore(db: Database) {
  return {
    conflictsOfAccounts: (adAccountIds: string[]) => conflictsOfAccounts(db, adAccountIds),
    conflictsOfRule: (ruleId: number) => conflictsOfRule(db, ruleId),
  };
}

export type JudgingStore = ReturnType<typeof createJudgingStore>;
