/**
 * Reading and writing folders, rules and rule items, and turning rows into the API's shapes.
 * Route handlers stay a few lines each; every query the list screens run is here.
 */
import { and, asc, eq, getTableColumns, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client';
import { folders, metaAdAccounts, ruleItems, ruleTemplates, rules } from '../db/schema/index';
import { notFound } from '../http/errors';
import { indexedContains } from '../http/search';
import type { FolderDto, FolderRuleDto, MetaAdAccountRef } from '../../shared/folders';
import {
  FILTER_NAMES,
  TASK_NAMES,
  defaultFilters,
  defaultTasks,
  isFilterName,
  isTaskName,
  normaliseFilterValues,
  normaliseTaskValues,
  type FilterItem,
  type RuleDto,
  type TaskItem,
} from '../../shared/rules';
import { defaultAlertDay, defaultWeek } from '../../shared/schedule';
import { CREDENTIALS_UNREADABLE, maskCredentials, readCredentials, type CredentialCipher } from './credentials';
import { isValidTimezone } from './timezones';
import { NEW_RULE_JUDGING, readJudging, type RuleJudging } from '../../shared/judging';
import { readBudgetLimits } from '../../shared/budgetLimits';
import type { ConditionGroup } from '../../shared/ruleConditions';
import type { RuleAction } from '../../shared/ruleActions';
import { readStoredAction, readStoredConditions } from './ruleConditionFields';

export type FolderRow = typeof folders.$inferSelect;
export type RuleRow = typeof rules.$inferSelect;
/** Only the columns this area reads: the ad-platform area owns that table and may add more. */
export const accountColumns = {
  adAccountId: metaAdAccounts.adAccountId,
  accountName: metaAdAccounts.accountName,
  timezoneName: metaAdAccounts.timezoneName,
};
/**
 * Folders whose name, or whose ad account's name, contains the text. Each name is looked up in its
 * trigram index and the folders found by id and account, rather than an ILIKE over every folder
 * joined to its account. The
 * accounts are a hashed `in (select …)`: as `= any(array(…))` each folder was compared with every
 * matching account, 61 ms for a word most accounts hold (`Leads`) against 12 ms.
 */
export const folderOrAccountNameContains = (text: string) =>
  or(
    indexedContains(folders.name, text),
    sql`${folders.adAccountId} in (select ${metaAdAccounts.adAccountId} from ${metaAdAccounts}
      where ${indexedContains(metaAdAccounts.accountName, text)})`,
  )!;

export type AccountRow = { adAccountId: string; accountName: string; timezoneName: string };
type ItemRow = typeof ruleItems.$inferSelect;

/** A database or an open transaction: everything here works inside either. */
export type Db = Pick<Database, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export const accountRef = (a: AccountRow | null): MetaAdAccountRef | null =>
  a ? { ad_account_id: a.adAccountId, account_name: a.accountName, timezone_name: a.timezoneName } : null;

/** What the tree shows of a rule: no schedules, so a page of folders stays small. */
const ruleSummaryColumns = {
  id: rules.id,
  folderId: rules.folderId,
  name: rules.name,
  isActive: rules.isActive,
  notifyOnly: rules.notifyOnly,
  isDeleted: rules.isDeleted,
  deletedAt: rules.deletedAt,
};
export type RuleSummary = Pick<RuleRow, keyof typeof ruleSummaryColumns>;

export const folderRuleDto = (r: RuleSummary): FolderRuleDto => ({
  id: r.id,
  name: r.name,
  is_active: r.isActive,
  notify_only: r.notifyOnly,
  is_deleted: r.isDeleted,
  deleted_at: iso(r.deletedAt),
  folder: r.folderId,
});

const maskedOrNull = (c: ReturnType<typeof readCredentials>) => (c && c !== 'unreadable' ? maskCredentials(c) : null);

function extensionDto(stored: ReturnType<typeof readCredentials>): FolderDto['extension'] {
  const extension: FolderDto['extension'] = { external_credentials: { demio: maskedOrNull(stored) } };
  return stored === 'unreadable' ? { ...extension, credentials_error: CREDENTIALS_UNREADABLE } : extension;
}

export function folderDto(
  f: FolderRow,
  account: AccountRow | null,
  folderRules: RuleSummary[],
  cipher: CredentialCipher,
): FolderDto {
  const live = folderRules.filter((r) => !r.isDeleted);
  return {
    id: f.id,
    name: f.name,
    client_type: f.clientType,
    plan: f.plan,
    meta_ad_account: accountRef(account),
    extension: extensionDto(readCredentials(cipher, f.demioCredentials)),
    budget_limits: readBudgetLimits(f.budgetLimits),
    alert_emails: f.alertEmails ?? [],
    rules: folderRules.map(folderRuleDto),
    rules_count: live.length,
    active_rules_count: live.filter((r) => r.isActive).length,
    is_deleted: f.isDeleted,
    deleted_at: iso(f.deletedAt),
    created_at: iso(f.createdAt)!,
  };
}

export async function findAccount(db: Db, adAccountId: string): Promise<AccountRow | null> {
  const [row] = await db.select(accountColumns).from(metaAdAccounts).where(eq(metaAdAccounts.adAccountId, adAccountId));
  return row ?? null;
}

/** A folder with its ad account; `forUpdate` (in a transaction) holds the folder's row until it ends. */
export async function findFolder(
  db: Db,
  id: number,
  forUpdate = false,
): Promise<{ folder: FolderRow; account: AccountRow | null } | null> {
  const query = db
    .select({ folder: folders, account: accountColumns })
    .from(folders)
    .leftJoin(metaAdAccounts, eq(metaAdAccounts.adAccountId, folders.adAccountId))
    .where(eq(folders.id, id));
  const [row] = forUpdate ? await query.for('update', { of: folders }) : await query;
  return row ?? null;
}

export async function requireFolder(db: Db, id: number, forUpdate = false) {
  const found = await findFolder(db, id, forUpdate);
  if (!found) throw notFound();
  return found;
}

/** The rules of these folders, oldest first; `which` picks live, trashed or all rules. */
export async function rulesOfFolders(
  db: Db,
  folderIds: number[],
  which: 'live' | 'deleted' | 'all',
): Promise<Map<number, RuleSummary[]>> {
  const byFolder = new Map<number, RuleSummary[]>(folderIds.map((id) => [id, []]));
  if (!folderIds.length) return byFolder;
  const conditions: SQL[] = [inArray(rules.folderId, folderIds)];
  if (which !== 'all') conditions.push(eq(rules.isDeleted, which === 'deleted'));
  const rows: RuleSummary[] = await db
    .select(ruleSummaryColumns)
    .from(rules)
    .where(and(...conditions))
    .orderBy(asc(rules.folderId), asc(rules.id));
  for (const row of rows) byFolder.get(row.folderId)?.push(row);
  return byFolder;
}

function itemDtos(rows: ItemRow[]): { rule_filter: FilterItem[]; rule_task: TaskItem[] } {
  const byName = new Map(rows.map((r) => [r.name, r]));
  // Catalogue order, and every catalogue item present even if a row is missing.
  const filters = defaultFilters().map((d) => {
    const row = byName.get(d.name);
    return row
      ? {
          id: row.id,
          name: d.name,
          type: d.type,
          values: normaliseFilterValues(row.values as unknown[]),
          is_active: row.isActive,
        }
      : d;
  });
  const tasks = defaultTasks().map((d) => {
    const row = byName.get(d.name);
    return row
      ? {
          id: row.id,
          name: d.name,
          type: d.type,
          values: normaliseTaskValues(d.name, row.values as Record<string, unknown>),
          is_active: row.isActive,
        }
      : d;
  });
  return { rule_filter: filters, rule_task: tasks };
}

export interface StoredRule {
  rule: RuleRow;
  folder: FolderRow;
  /** The folder's ad account, with the currency the rule engine reports money in. */
  account: (AccountRow & { currency: string }) | null;
  /** The stored item rows, in catalogue position. */
  items: ItemRow[];
  /** The template the rule follows, null for none. */
  template: TemplateRow | null;
}

/** A template as a following rule reads it. */
export type TemplateRow = Pick<typeof ruleTemplates.$inferSelect, 'id' | 'name' | 'values'>;

/**
 * A rule's item rows in catalogue position, as one JSON value of the rule's own row: each row's
 * columns under their schema keys, from the table's own column list (none is a date, so JSON
 * gives each as drizzle would).
 */
const itemRowsOfRule = sql<ItemRow[]>`(select coalesce(json_agg(json_build_object(${sql.join(
  Object.entries(getTableColumns(ruleItems)).map(
    ([key, column]) => sql`${key}::text, item.${sql.identifier(column.name)}`,
  ),
  sql`, `,
)}) order by item.position, item.id), '[]') from ${ruleItems} as item where item.rule_id = ${rules.id})`;

/** A rule as stored, with its folder, ad account and items, in one statement: what the rule API and the rule engine read. */
export async function findStoredRule(db: Db, id: number, forUpdate = false): Promise<StoredRule | null> {
  const query = db
    .select({
      rule: rules,
      folder: folders,
      account: { ...accountColumns, currency: metaAdAccounts.currency },
      items: itemRowsOfRule,
      template: { id: ruleTemplates.id, name: ruleTemplates.name, values: ruleTemplates.values },
    })
    .from(rules)
    .innerJoin(folders, eq(folders.id, rules.folderId))
    .leftJoin(metaAdAccounts, eq(metaAdAccounts.adAccountId, folders.adAccountId))
    .leftJoin(ruleTemplates, eq(ruleTemplates.id, rules.templateId))
    .where(eq(rules.id, id));
  // Locked first, then read in a statement of its own: a lock that waited on another write (a
  // template edit) would re-read the rule's row but not its items or template joined to it.
  if (forUpdate) await db.select({ id: rules.id }).from(rules).where(eq(rules.id, id)).for('update');
  const [row] = await query;
  return row ?? null;
}

export interface LoadedRule {
  rule: RuleRow;
  folder: FolderRow;
  account: AccountRow | null;
  items: { rule_filter: FilterItem[]; rule_task: TaskItem[] };
  template?: TemplateRow | null;
}

/** `forUpdate`: the rule's row stays locked to the end of the transaction. */
export async function loadRule(db: Db, id: number, forUpdate = false): Promise<LoadedRule | null> {
  const stored = await findStoredRule(db, id, forUpdate);
  return stored && { ...stored, items: itemDtos(stored.items) };
}

export async function requireRule(db: Db, id: number, forUpdate = false): Promise<LoadedRule> {
  const loaded = await loadRule(db, id, forUpdate);
  if (!loaded) throw notFound();
  return loaded;
}

export function ruleDto({ rule, folder, account, items, template }: LoadedRule): RuleDto {
  return {
    id: rule.id,
    name: rule.name,
    is_active: rule.isActive,
    notify_only: rule.notifyOnly,
    is_deleted: rule.isDeleted,
    folder: {
      id: folder.id,
      name: folder.name,
      client_type: folder.clientType,
      plan: folder.plan,
      is_deleted: folder.isDeleted,
      meta_ad_account: accountRef(account),
      budget_limits: readBudgetLimits(folder.budgetLimits),
      alert_emails: folder.alertEmails ?? [],
    },
    rule_filter: items.rule_filter,
    rule_task: items.rule_task,
    rule_schedule: { schedule: rule.schedule, timezone: rule.timezone },
    rule_alert_schedule: { schedule: rule.alertSchedule },
    judging: readJudging(rule.judging),
    conditions: readStoredConditions(rule.conditions).value,
    action: readStoredAction(rule.action).value,
    template: template
      ? { id: template.id, name: template.name, overrides: rule.templateOverrides, values: template.values }
      : null,
    created_at: iso(rule.createdAt)!,
    updated_at: iso(rule.updatedAt)!,
  };
}

export interface NewRule {
  name: string;
  isActive?: boolean;
  schedule?: boolean[][];
  timezone?: string;
  alertSchedule?: boolean[];
  judging?: RuleJudging;
  conditions?: ConditionGroup | null;
  action?: RuleAction | null;
  filters?: FilterItem[];
  tasks?: TaskItem[];
}

/** An item's place in its catalogue (filters and tasks each count from 0). */
const itemPosition = (item: FilterItem | TaskItem) =>
  item.type === 'rule_filter' ? FILTER_NAMES.indexOf(item.name as never) : TASK_NAMES.indexOf(item.name as never);

/** A rule with the defaults of docs/contract.md#entities unless given: EDM filter, no tasks on, Fill default schedules. */
export async function insertRule(
  db: Db,
  folder: FolderRow,
  account: AccountRow | null,
  rule: NewRule,
): Promise<RuleRow> {
  const accountZone = account?.timezoneName && isValidTimezone(account.timezoneName) ? account.timezoneName : 'UTC';
  const [row] = await db
    .insert(rules)
    .values({
      folderId: folder.id,
      name: rule.name,
      isActive: rule.isActive ?? false,
      schedule: rule.schedule ?? defaultWeek(),
      timezone: rule.timezone ?? accountZone,
      alertSchedule: rule.alertSchedule ?? defaultAlertDay(),
      judging: rule.judging ?? NEW_RULE_JUDGING,
      conditions: rule.conditions ?? null,
      action: rule.action ?? null,
    })
    .returning();
  const items = [...(rule.filters ?? defaultFilters()), ...(rule.tasks ?? defaultTasks())];
  await db.insert(ruleItems).values(
    items.map((item) => ({
      ruleId: row!.id,
      type: item.type,
      name: item.name,
      values: item.values,
      isActive: item.is_active,
      position: itemPosition(item),
    })),
  );
  return row!;
}

/** Writes the given items over the rule's stored ones (matched by name), in one statement. */
export async function saveItems(db: Db, ruleId: number, items: (FilterItem | TaskItem)[]): Promise<void> {
  // By name, the last given of each: one statement may not write a row twice.
  const known = new Map(
    items
      .filter((item) => (item.type === 'rule_filter' ? isFilterName(item.name) : isTaskName(item.name)))
      .map((item) => [item.name, item]),
  );
  if (!known.size) return;
  await db
    .insert(ruleItems)
    .values(
      [...known.values()].map((item) => ({
        ruleId,
        type: item.type,
        name: item.name,
        values: item.values,
        isActive: item.is_active,
        position: itemPosition(item),
      })),
    )
    .onConflictDoUpdate({
      target: [ruleItems.ruleId, ruleItems.name],
      set: { values: sql`excluded.values`, isActive: sql`excluded.is_active`, type: sql`excluded.type` },
    });
}

export async function touchRule(db: Db, id: number, set: PgUpdateSetSource<typeof rules>): Promise<void> {
  await db
    .update(rules)
    .set({ ...set, updatedAt: sql`now()` })
    .where(eq(rules.id, id));
}
