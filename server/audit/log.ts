/**
 * The audit log (`/api/log/`): one entry per change a user makes to folders, rules, users and
 * groups, written here and read back a page at a time. Names are copied at write time so an
 * entry stays readable after what it names is gone.
 */
import { and, desc, eq, getTableColumns, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { LogEntryDto } from '../../shared/contracts';
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
  orderingKeys,
} from '../http/pagination';
import { readAndSort, readThenSort } from '../http/readOrWalk';
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

const auditRow = (actor: AuditActor | null, entry: AuditEntry) => ({
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

/** Writes one entry; pass a transaction as `db` to keep it atomic with the change itself. */
export async function recordAudit(db: Database, actor: AuditActor | null, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values(auditRow(actor, entry));
}

/**
 * The entry as a WITH query of the change's own statement (`tx.with(auditWith(tx, …)).update(…)`):
 * written atomically with the change and without a round trip of its own, which under a team's
 * traffic is a wait of its own for the database (docs/decisions.md, "Server").
 */
export const auditWith = (db: Database, actor: AuditActor | null, entry: AuditEntry) =>
  db.$with('audit_entry').as(db.insert(auditLog).values(auditRow(actor, entry)));

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

/** One way a search matches: by `names` in `column`, or (no column) by the entry's text. */
interface SearchBranch {
  where: SQL;
  column?: AnyPgColumn;
  names?: string[];
}

/**
 * The search: an entry matches when any of its names (actor, folder, ad account, rule) or its
 * action or changes text contains the text. The names are first looked up among the few thousand
 * distinct ones (audit_log_names), then their entries found by the names' b-tree indexes; the
 * action and changes text by the search text's trigram index, the columns themselves deciding
 * (textMatches: a match spanning two columns is none). One condition per way of matching (the
 * entry matches when any holds); undefined for no search.
 */
async function searchBranches(db: Database, search: unknown): Promise<SearchBranch[] | undefined> {
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
  const named = Object.entries(NAME_COLUMNS).flatMap(([kind, column]): SearchBranch[] => {
    const names = found.filter((r) => r.kind === kind).map((r) => r.name);
    // One name as an equality: its index then yields the entries in its second column's order.
    if (names.length === 1) return [{ where: eq(column, names[0]!), column, names }];
    return names.length ? [{ where: sql`${column} = any(${sql.param(names)}::text[])`, column, names }] : [];
  });
  const inText = and(
    ilike(auditLog.searchText, pattern),
    textMatches([auditLog.action, auditLog.changesText], pattern),
  )!;
  return [...named, { where: inText }];
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

/** The first sort key's column (the default: the time of the entry). */
function firstSortColumn(raw: unknown): string {
  const key = orderingKeys(raw).find((k) => Object.hasOwn(ORDERING, k));
  return key ? ORDERING[key as keyof typeof ORDERING].name : auditLog.timestamp.name;
}

/**
 * A name column and a sort column with an index on both (then the id): one person's entries, tens
 * of thousands, walk it in the sort's order to any page (migration 0024).
 */
const PERSON_SORTED = new Set(
  [auditLog.action, auditLog.folderName, auditLog.ruleName].map((sorted) => `${auditLog.actor.name}/${sorted.name}`),
);

/**
 * One way to page on its own (the page is the union of the ways' pages): `walk` leaves it to the
 * planner; `read` reads the matches and sorts them when that beats a walk (readOrWalk.ts, told
 * whether they are `spread` along the sort); `eachName` takes each name's first entries in time
 * from its `(name, timestamp, id)` index.
 */
interface PagingWay {
  where: SQL;
  how: 'walk' | 'read' | 'eachName';
  spread?: boolean;
  branch?: SearchBranch;
}

/**
 * The ways to page: a name in the column the page is sorted by, or one name in the time sort,
 * is walked in order along its index; several names in the time sort, name by name; names in
 * another column, read and sorted or walked; the text, left to the planner. Without a search, the
 * id filters alone, read and sorted or walked. A person's entries, and any in the action and
 * person sorts, are spread along the sort; a firm's folder, ad account and rules, and a folder's
 * or rule's entries, may sit together in the folder and rule sorts.
 */
function pagingWays(branches: SearchBranch[] | undefined, ids: SQL | undefined, sortColumn: string): PagingWay[] {
  const byTime = sortColumn === auditLog.timestamp.name;
  const unrelated = byTime || sortColumn === auditLog.action.name || sortColumn === auditLog.actor.name;
  if (!branches) return ids ? [{ where: ids, how: 'read', spread: unrelated }] : [];
  return branches.map((branch) => {
    const where = and(branch.where, ids)!;
    if (!branch.column || branch.column.name === sortColumn) return { where, how: 'walk' };
    if (branch.names!.length === 1 && PERSON_SORTED.has(`${branch.column.name}/${sortColumn}`))
      return { where, how: 'walk' };
    if (!byTime) return { where, how: 'read', spread: unrelated || branch.column === auditLog.actor };
    return { where, how: branch.names!.length > 1 ? 'eachName' : 'walk', branch };
  });
}

/** The columns `ordering` sorts by, with the id: what a page's parts carry to be sorted together. */
function orderingColumns(raw: unknown) {
  const keys = orderingKeys(raw).filter((k): k is keyof typeof ORDERING => Object.hasOwn(ORDERING, k));
  const columns = keys.length ? keys.map((k) => ORDERING[k]) : [auditLog.timestamp];
  return Object.fromEntries([...columns, auditLog.id].map((column) => [column.name, column]));
}

/**
 * One page of the log, newest first unless ordered otherwise: the page's ids first (an index walk,
 * index-only at a deep offset), then those entries.
 *
 * A search that matches in several ways (an actor's name, a folder's, the text …) takes the page
 * of each way on its own, then the page of their union: as one condition, PostgreSQL would walk
 * the sort's index testing every entry, and when the matches sit at the far end of that index (a
 * person's entries sorted by person, backwards) it reads nearly all of them (docs/decisions.md,
 * "Lists"). A narrow way is read whole and sorted when that beats a walk (readOrWalk.ts).
 */
async function listAuditLog(
  db: Database,
  { limit, offset }: PageRequest,
  filters: AuditLogFilters,
  countCap = DEFAULT_COUNT_CAP,
): Promise<Slice<LogEntryDto>> {
  const branches = await searchBranches(db, filters.search);
  const ids = idConditions(filters);
  const where = and(branches ? or(...branches.map((b) => b.where)) : undefined, ids);
  const ordering = orderingWithId(filters.ordering, ORDERING, [desc(auditLog.timestamp)], auditLog.id);
  const sortColumn = firstSortColumn(filters.ordering);
  const ways = pagingWays(branches, ids, sortColumn);
  const reach = offset + limit + 1;
  const idsOf = (condition: SQL | undefined) => db.select({ id: auditLog.id }).from(auditLog).where(condition);
  const columns = orderingColumns(filters.ordering);
  // The union and each way's part are named audit_log and keep the sort columns' names, so the
  // same ordering sorts them (a CTE's or a lateral subquery's name is not in scope inside it).
  const wayPage = async ({ where: way, how, spread, branch }: PagingWay) => {
    const matching = db.select(columns).from(auditLog).where(way);
    if (how === 'eachName') {
      const first = db
        .select(columns)
        .from(auditLog)
        .where(and(eq(branch!.column!, sql`wanted.name`), ids))
        .orderBy(...ordering)
        .limit(reach);
      return sql`(select ${auditLog}.* from unnest(${sql.param(branch!.names)}::text[]) as wanted(name)
        cross join lateral (${first}) as ${auditLog} order by ${sql.join(ordering, sql`, `)} limit ${reach})`;
    }
    const read =
      how === 'read' &&
      readAndSort({
        matches: await plannerEstimate(db, idsOf(way)),
        tableRows: await plannerEstimate(db, idsOf(undefined)),
        rowsWanted: reach,
        spread: spread ?? false,
      });
    return read
      ? readThenSort(sql`${auditLog}`, sql`${matching}`, ordering, reach, sql`*`)
      : sql`(${matching.orderBy(...ordering).limit(reach)})`;
  };
  const pageIds =
    ways.length > 1 || (ways[0] && ways[0].how !== 'walk')
      ? sql`(select id from (${sql.join(await Promise.all(ways.map(wayPage)), sql` union `)}) as ${auditLog}
          order by ${sql.join(ordering, sql`, `)} limit ${limit + 1} offset ${offset})`
      : idsOf(where)
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
    () => countMatching(db, db.select({ id: auditLog.id }).from(auditLog).where(where), countCap),
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

/** The audit log over one database, as its route reads it. */
export function createAuditLogStore(db: Database, { countCap }: { countCap: number }) {
  return { list: (paging: PageRequest, filters: AuditLogFilters) => listAuditLog(db, paging, filters, countCap) };
}

export type AuditLogStore = ReturnType<typeof createAuditLogStore>;
