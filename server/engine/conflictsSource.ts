/** The conflicts of folders' live rules, read from the database (the logic is conflicts.ts). */
import { and, eq, inArray } from 'drizzle-orm';
import type { Database } from '../db/client';
import { platformHealthNow } from '../health/report';
import { rules } from '../db/schema/index';
import { notFound } from '../http/errors';
import type { RuleConflictDto } from '../../src/domain/judging';
import { folderConflicts, type ConflictRule } from './conflicts';
import { loadEngineRules } from './rulesSource';

/** Each rule id → its conflicts among the rules of its own folder (rules without any are absent). */
export function conflictsByRule(rules: (ConflictRule & { folderId: number })[]): Map<number, RuleConflictDto[]> {
  const byFolder = new Map<number, ConflictRule[]>();
  for (const rule of rules) byFolder.set(rule.folderId, [...(byFolder.get(rule.folderId) ?? []), rule]);
  const byRule = new Map<number, RuleConflictDto[]>();
  for (const folderRules of byFolder.values())
    for (const conflict of folderConflicts(folderRules))
      byRule.set(conflict.rule_id, [...(byRule.get(conflict.rule_id) ?? []), conflict]);
  return byRule;
}

/** Each rule id of the folders → its conflicts (rules without any are absent). */
export async function conflictsOfFolders(db: Database, folderIds: number[]): Promise<Map<number, RuleConflictDto[]>> {
  if (!folderIds.length) return new Map();
  const ids = await db
    .select({ id: rules.id })
    .from(rules)
    .where(and(inArray(rules.folderId, folderIds), eq(rules.isDeleted, false), eq(rules.isActive, true)));
  if (ids.length < 2) return new Map();
  const loaded = await loadEngineRules(
    db,
    ids.map((r) => r.id),
  );
  return conflictsByRule([...loaded.values()].map((rule) => ({ ...rule, folderId: rule.folder.id })));
}

export async function conflictsOfRule(db: Database, ruleId: number): Promise<RuleConflictDto[]> {
  const [row] = await db.select({ folderId: rules.folderId }).from(rules).where(eq(rules.id, ruleId));
  if (!row) throw notFound();
  return (await conflictsOfFolders(db, [row.folderId])).get(ruleId) ?? [];
}

/** A rule's conflicts and the platform's health over one database, as the judging routes read them. */
export function createJudgingStore(db: Database) {
  return {
    conflictsOfRule: (ruleId: number) => conflictsOfRule(db, ruleId),
    platformHealth: () => platformHealthNow(db),
  };
}
