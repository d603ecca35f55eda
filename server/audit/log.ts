/**
 * The audit log (`/api/log/`): one entry per change a user makes to folders, rules, users and
 * groups, written here and read back a page at a time. Names are copied at write time so an
 * entry stays readable after what it names is gone.
 */
import { and, desc, eq, getTableColumns, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { LogEntryDto } from '../../src/domain/contracts';
import type { Database } from '../db/client';
import { auditLog, auditLogNames } from '../db/schema/index';
import {
  countMatching,
  DEFAULT_COUNT_CAP,
  estimatedSlice,
  idList,
  orderingWithId,
  plannerEstimate,
  type PageRequest,
  type Slice,
} from '../http/pagination';
import { containsPattern, textMatches } from '../http/search';

export interface AuditActor {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
}

export interface AuditEntry {
  action: string;
  changesText?: string;
  folder?: { id: number; name: string; adAccountName?: string | null } | null;
  rule?: { id: number; name: string } | null;
}

/** 'First Last', or the e-mail address when the name is blank. */
export function actorName(actor: AuditActor): string {
  return `${actor.first_name} ${actor.last_name}`.trim() || actor.email;
}

/** A value as a log text shows it: '—' for nothing, objects as JSON. */
const show = (v: unknown) =>
  v === null || v === undefined || v === '' ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v);

/** `{name: ['Old', 'New']}` → "name: Old → New"; unchanged fields are left out. */
export function describeChanges(changes: Record<string, [unknown, unknown]>): string {
  return Object.entries(changes)
    .filter(([, [before, after]]) => show(before) !== show(after))
    .map(([field, [before, after]]) => `${field}: ${show(before)} → ${show(after)}`)
    .join('; ');
}

/** `{Name: 'Acme', Plan: 'solo'}` → "Name: Acme; Plan: solo" (what a new object was created with). */
export function describeValues(values: Record<string, unknown>): string {
  return Object.entries(values)
    .map(([field, value]) => `${field}: ${show(value)}`)
    .join('; ');
}

/** Writes one entry; pass a transaction as `db` to keep it atomic with the change itself. */
export async function recordAudit(db: Database, actor: AuditActor | null, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    actorId: actor?.id ?? null,
    actor: actor ? actorName(actor) : 'System',
    action: entry.action,
    changesText: entry.changesText ?? '',
    folderId: entry.folder?.id ?? null,
    folderName: entry.folder?.name ?? null,
    metaAdAccountName: entry.folder?.adAccountName ?? null,
    ruleId: entry.rule?.id ?? null,
    ruleName: entry.rule?.name ?? null,
  });
}

/** Sort keys of the log screen; `ad_account` sorts by folder name (docs/contract.md#calls). */
const ORDERING = {
  timestamp: auditLog.timestamp,
  actor: auditLog.actor,
  folder_name: auditLog.folderName,
  ad_account: auditLog.folderName,
  meta_ad_account_name: auditLog.metaAdAccountName,
  action: auditLog.action,
  changes_text: auditLog.changesText,
  rule_name: auditLog.ruleName,
  rule: auditLog.ruleName,
  id: auditLog.id,
};

export interface AuditLogFilters {
  search?: string;
  ordering?: string;
  /** Comma-separated ids; present but naming no id matches nothing. */
  rule_id_in?: string;
  folder_id_in?: string;
}

/** The names an entry holds, by their kind in audit_log_names (docs/contract.md#calls: the Log's search). */
const NAME_COLUMNS = {
  actor: auditLog.actor,
  folder: auditLog.folderName,
  account: auditLog.metaAdAccountName,
  rule: auditLog.ruleName,
} as const;

/** Every column but the search text, which only the search reads. */
const { searchText: _searchText, ...ENTRY_COLUMNS } = getTableColumns(auditLog);

/**
 * The search: an entry matches when any of its names (actor, folder, ad account, rule) or its
 * action or changes text contains the text. The names are first looked up among the few thousand
 * distinct ones (audit_log_names), then their entries found by the names' b-tree indexes; the
 * action and changes text by the search text's trigram index, the columns themselves deciding
 * (textMatches: a match spanning two columns is none). One condition per way of matching (the
 * entry matches when any holds), `named` for those by a name; undefined for no search.
 */
async function searchBranches(db: Database, search: unknown): Promise<{ where: SQL; named: boolean }[] | undefined> {
  const text = String(search ?? '').trim();
  if (!text) return undefined;
  const pattern = containsPattern(text);
  // lower(name) LIKE lower(pattern) is what ILIKE does, the names' side lowered once, when stored;
  // the recheck (textMatches) makes the planner take the trigram index over reading the table.
  const found = await db
    .select({ kind: auditLogNames.kind, name: auditLogNames.name })
    .from(auditLogNames)
    .where(and(sql`${auditLogNames.nameLower} like lower(${pattern})`, textMatches([auditLogNames.name], pattern)));
  // Only the columns a matching name was written in: each is an index lookup the planner can size.
  const named = Object.entries(NAME_COLUMNS).flatMap(([kind, column]) => {
    const names = found.filter((r) => r.kind === kind).map((r) => r.name);
    // One name as an equality: its index then yields the entries in its second column's order.
    if (names.length === 1) return [{ where: eq(column, names[0]!), named: true }];
    return names.length ? [{ where: sql`${column} = any(${sql.param(names)}::text[])`, named: true }] : [];
  });
  const inText = and(
    ilike(auditLog.searchText, pattern),
    textMatches([auditLog.action, auditLog.changesText], pattern),
  )!;
  return [...named, { where: inText, named: false }];
}

/** The filters other than the search as one condition over audit_log alone. */
function idConditions(filters: AuditLogFilters): SQL | undefined {
  const conditions: SQL[] = [];
  if (filters.rule_id_in !== undefined)
    conditions.push(inArray(auditLog.ruleId, idList(filters.rule_id_in).concat(-1)));
  if (filters.folder_id_in !== undefined)
    conditions.push(inArray(auditLog.folderId, idList(filters.folder_id_in).concat(-1)));
  return conditions.length ? and(...conditions) : undefined;
}

/** The columns a page is sorted by, once each. */
const SORT_COLUMNS = Object.fromEntries(Object.values(ORDERING).map((column) => [column.name, column]));

/**
 * Up to this many entries found by a name are read and sorted rather than found by walking the
 * sort's index: the walk is a guess that matches are spread evenly along it, wrong when the sort
 * follows the name (an ad account's entries are one folder's, all together in the folder sort).
 */
const READ_AND_SORT_UP_TO = 50_000;

/**
 * One page of the log, newest first unless ordered otherwise: the page's ids first (an index walk,
 * index-only at a deep offset), then those entries.
 *
 * A search that matches in several ways (an actor's name, a folder's, the text …) takes the page
 * of each way on its own, then the page of their union: as one condition, PostgreSQL would walk
 * the sort's index testing every entry, and when the matches sit at the far end of that index (a
 * person's entries sorted by person, backwards) it reads nearly all of them (docs/bench.md,
 * "Mixed traffic"). Each way alone is an index lookup in the sort's order, or its matches sorted.
 */
export async function listAuditLog(
  db: Database,
  { limit, offset }: PageRequest,
  filters: AuditLogFilters,
  countCap = DEFAULT_COUNT_CAP,
): Promise<Slice<LogEntryDto>> {
  const branches = await searchBranches(db, filters.search);
  const ids = idConditions(filters);
  const where = and(branches ? or(...branches.map((b) => b.where)) : undefined, ids);
  const ordering = orderingWithId(filters.ordering, ORDERING, [desc(auditLog.timestamp)], auditLog.id);
  // The union and each read-and-sorted part are named audit_log and keep the sort columns' names,
  // so the same ordering sorts them.
  const branchPage = async ({ where: branch, named }: { where: SQL; named: boolean }) => {
    const matching = db.select(SORT_COLUMNS).from(auditLog).where(and(branch, ids));
    const sortOnly =
      named &&
      (await plannerEstimate(db, db.select({ id: auditLog.id }).from(auditLog).where(and(branch, ids)))) <=
        READ_AND_SORT_UP_TO;
    return sortOnly
      ? sql`(select * from (${matching.offset(0)}) as ${auditLog} order by ${sql.join(ordering, sql`, `)} limit ${offset + limit + 1})`
      : sql`(${matching.orderBy(...ordering).limit(offset + limit + 1)})`;
  };
  const pageIds =
    branches && branches.length > 1
      ? sql`(select id from (${sql.join(await Promise.all(branches.map(branchPage)), sql` union `)}) as ${auditLog}
          order by ${sql.join(ordering, sql`, `)} limit ${limit + 1} offset ${offset})`
      : db
          .select({ id: auditLog.id })
          .from(auditLog)
          .where(where)
          .orderBy(...ordering)
          .limit(limit + 1)
          .offset(offset);
  const { results: rows, ...page } = await estimatedSlice(
    { limit, offset },
    db
      .select(ENTRY_COLUMNS)
      .from(auditLog)
      .where(inArray(auditLog.id, pageIds))
      .orderBy(...ordering),
    countMatching(db, db.select({ id: auditLog.id }).from(auditLog).where(where), countCap),
  );
  return {
    ...page,
    results: rows.map((r) => ({
      id: r.id,
      timestamp: r.timestamp.toISOString(),
      actor: r.actor,
      folder_name: r.folderName,
      meta_ad_account_name: r.metaAdAccountName,
      action: r.action,
      changes_text: r.changesText,
      rule_name: r.ruleName,
      rule_id: r.ruleId,
      folder_id: r.folderId,
    })),
  };
}
