/**
 * The rules that follow a template, and the rules elsewhere that look like it: the reads the
 * template screen, its edit and its preview share.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import { folders, metaAdAccounts, ruleItems, rules } from '../db/schema/index';
import { loadRule, type Db, type LoadedRule } from '../rules/store';
import { snapshotOf } from '../rules/rules';
import { looksLike, type RuleValues, type TemplateField } from '../../shared/templates';
import { valuesOfSnapshot } from './values';

export interface Follower {
  ruleId: number;
  ruleName: string;
  isActive: boolean;
  isDeleted: boolean;
  overrides: TemplateField[];
  folderId: number;
  folderName: string;
  folderDeleted: boolean;
  accountName: string | null;
}

/** Every rule following the template (trashed ones too: they come back following it), folder order. */
export async function followersOf(db: Db, templateId: number, forUpdate = false): Promise<Follower[]> {
  const query = db
    .select({
      ruleId: rules.id,
      ruleName: rules.name,
      isActive: rules.isActive,
      isDeleted: rules.isDeleted,
      overrides: rules.templateOverrides,
      folderId: folders.id,
      folderName: folders.name,
      folderDeleted: folders.isDeleted,
      accountName: metaAdAccounts.accountName,
    })
    .from(rules)
    .innerJoin(folders, eq(folders.id, rules.folderId))
    .leftJoin(metaAdAccounts, eq(metaAdAccounts.adAccountId, folders.adAccountId))
    .where(eq(rules.templateId, templateId))
    .orderBy(folders.name, rules.id);
  return forUpdate ? query.for('update', { of: rules }) : query;
}

export const isLive = (f: Pick<Follower, 'isDeleted' | 'folderDeleted'>) => !f.isDeleted && !f.folderDeleted;

export async function valuesOfRule(db: Db, ruleId: number): Promise<{ loaded: LoadedRule; values: RuleValues }> {
  const loaded = (await loadRule(db, ruleId))!;
  return { loaded, values: valuesOfSnapshot(snapshotOf(loaded)) };
}

/** At most this many lookalikes are listed: a template that looks like hundreds of rules is a starting point, not a list to read. */
export const MAX_LOOKALIKES = 50;

/**
 * Live rules in live folders, following no template, that do what it does (the same task
 * cards on, the same kind of action): matched in SQL on those two, then read whole.
 */
export async function lookalikesOf(
  db: Db,
  template: RuleValues,
): Promise<{ loaded: LoadedRule; values: RuleValues }[]> {
  const onTasks = template.rule_task
    .filter((t) => t.is_active)
    .map((t) => t.name)
    .sort()
    .join(',');
  const actionKind = template.action ? template.action.kind : '';
  // A template that does nothing yet looks like every blank rule: no lookalikes until it acts.
  if (!onTasks && !actionKind) return [];
  const rows = await db
    .select({ id: rules.id })
    .from(rules)
    .innerJoin(folders, eq(folders.id, rules.folderId))
    .where(
      and(
        eq(rules.isDeleted, false),
        eq(folders.isDeleted, false),
        isNull(rules.templateId),
        sql`coalesce((select string_agg(item.name, ',' order by item.name) from ${ruleItems} as item
          where item.rule_id = ${rules.id} and item.type = 'rule_task' and item.is_active), '') = ${onTasks}`,
        sql`coalesce(${rules.action}->>'kind', '') = ${actionKind}`,
      ),
    )
    .orderBy(folders.name, rules.id)
    .limit(MAX_LOOKALIKES);
  const found = await Promise.all(rows.map((row) => valuesOfRule(db, row.id)));
  return found.filter(({ values }) => looksLike(template, values));
}
