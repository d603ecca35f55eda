/**
 * Reading the rule engine's log for the API: the rule log page (`GET /api/rule_log/`) and entries
 * by id (the answers of Run now and Undo); with a rule's exemptions (./exemptions.ts), its store.
 */
import { and, asc, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { RuleLogEntryDto } from '../../shared/contracts';
import type { Database } from '../db/client';
import { folders, metaAdAccounts, ruleActivity, ruleExemptions, ruleRuns, rules } from '../db/schema/index';
import {
  commaList,
  countMatching,
  DEFAULT_COUNT_CAP,
  estimatedSlice,
  idList,
  orderingTerms,
  orderingWithId,
  plannerEstimate,
  resultRows,
  type PageRequest,
  type Slice,
  sortKeyName,
} from '../http/pagination';
import { containsPattern, indexedContains, textMatches } from '../http/search';
import {
  type IdQuery,
  idsOfPage,
  pageAcross,
  pageOf,
  type RuleLogConditions,
  type SearchWay,
  sortColumnsOf,
  type Walk,
} from './ruleLogPages';
import { listExemptions, removeExemption } from './exemptions';
import { actionWalk } from './actionSort';

/**
 * Sort keys of the Activity screen. The rule name is the entry's kept copy of rules.name (triggers
 * of migration 0012), so that sort walks an index of rule_activity alone; the folder name is the
 * folder's own, joined by the entry's folder_id (migration 0020: a rename rewrites no entry).
 */
const ORDERING = {
  created_at: ruleActivity.createdAt,
  action: ruleActivity.action,
  ad_id: ruleActivity.adId,
  client_account: folders.name,
  folder_name: folders.name,
  rule: ruleActivity.ruleSort,
  rule_name: ruleActivity.ruleSort,
  id: ruleActivity.id,
};
const FOLDER_KEYS = new Set(['client_account', 'folder_name']);
/** The same sorts for entries without a folder, which all share the folder's place (its name is null). */
const NO_FOLDER_ORDERING = { ...ORDERING, client_account: ruleActivity.folderId, folder_name: ruleActivity.folderId };

export interface RuleLogFilters {
  search?: string;
  ordering?: string;
  /** Comma-separated ids; present but naming none matches nothing. */
  rule_id_in?: string;
  folder_id_in?: string;
  ad_id_in?: string;
}

/**
 * Entries with what the screen shows of their rule, folder and account, whether the rule leaves
 * the object alone, and a held run's decision. Only the rule and folder are joins; the rest are
 * lookups per entry (a page holds ten), which keeps the statement cheap to plan as well as to run.
 */
async function entries(db: Database, where: SQL | undefined, ordering: SQL[]) {
  const rows = await db
    .select({
      id: ruleActivity.id,
      createdAt: ruleActivity.createdAt,
      action: ruleActivity.action,
      adId: ruleActivity.adId,
      objectType: ruleActivity.objectType,
      reason: ruleActivity.reason,
      undoneAt: ruleActivity.undoneAt,
      runId: ruleActivity.runId,
      ruleId: rules.id,
      ruleName: rules.name,
      folderId: folders.id,
      folderName: folders.name,
      folderAccountId: folders.adAccountId,
      accountName: sql<string | null>`(select ${metaAdAccounts.accountName} from ${metaAdAccounts}
        where ${metaAdAccounts.adAccountId} = ${folders.adAccountId})`,
      exempt: sql<boolean>`exists (select 1 from ${ruleExemptions}
        where ${ruleExemptions.ruleId} = ${ruleActivity.ruleId} and ${ruleExemptions.objectId} = ${ruleActivity.adId})`,
      // A held run's alert: approved, dismissed or pending while the run is still held.
      decision: sql<string | null>`case when ${ruleActivity.action} = 'run_held' then (
        select coalesce(${ruleRuns.decision}, 'pending') from ${ruleRuns}
        where ${ruleRuns.id} = ${ruleActivity.runId} and ${ruleRuns.outcome} = 'held') end`,
    })
    .from(ruleActivity)
    .leftJoin(rules, eq(rules.id, ruleActivity.ruleId))
    .leftJoin(folders, eq(folders.id, ruleActivity.folderId))
    .where(where)
    .orderBy(...ordering);
  return rows.map(
    (row): RuleLogEntryDto & { run_id: number | null; decision: 'approved' | 'dismissed' | 'pending' | null } => ({
      id: row.id,
      created_at: new Date(row.createdAt).toISOString(),
      action: row.action,
      ad_id: row.adId,
      object_type: row.objectType,
      reason: row.reason ?? {},
      undone_at: row.undoneAt ? new Date(row.undoneAt).toISOString() : null,
      exempt: Boolean(row.exempt),
      rule:
        row.ruleId !== null && row.folderId !== null
          ? {
              id: row.ruleId,
              name: row.ruleName!,
              folder: {
                id: row.folderId,
                name: row.folderName!,
                meta_ad_account: { account_name: row.accountName ?? row.folderAccountId! },
              },
            }
          : null,
      run_id: row.runId,
      decision: (row.decision as 'approved' | 'dismissed' | 'pending' | null) ?? null,
    }),
  );
}

/** Entries by id, in id order. */
export const entriesByIds = (db: Database, ids: number[]) =>
  entries(db, inArray(ruleActivity.id, ids.length ? ids : [-1]), [asc(ruleActivity.id)]);

const intArray = (ids: number[]) => sql`${sql.param(ids)}::int[]`;

/**
 * More rules than this matching a search (a word of every rule's name, such as `CPL`) are matched
 * by the rule name each entry keeps (rule_sort) instead of by id: their entries are most of the
 * log, found as fast by a walk, and 20,000 ids cost more to look up and to plan (docs/bench.md).
 */
const MANY_RULES = 1_000;

/**
 * The search (docs/api.md): the entry's ad id, action or reason (its search text, one trigram
 * index; the columns recheck), or the current name of its rule, folder or folder's ad account.
 * Names change, so they are not copied onto entries: the matching rules and folders are looked up
 * first in their small tables, and the entries found by id — with the ids as constants the planner
 * knows how many entries they hold and picks the index lookups. An entry's folder_id is its rule's
 * folder (migration 0020), so a matching folder is one test, not the ids of all its rules (a word
 * every ad account's name holds named all 20,000 rules, tested against each entry's rule). Folders
 * are found by their name or their account's joined (a couple of thousand rows each, read whole:
 * testing each folder's account against the list of matching accounts took 190 ms for `Leads`).
 *
 * When the planner expects few entries to hold the text (no more than `countCap`), their ids are
 * looked up in the same statement too, so the page and its count, which run side by side, do not
 * both read the trigram index.
 * Should more than `countCap` match after all, the text test stays in the condition.
 */
async function searchBranches(db: Database, search: unknown, countCap: number): Promise<SearchWay[] | undefined> {
  const text = String(search ?? '').trim();
  if (!text) return undefined;
  const pattern = containsPattern(text);
  // The search text joins the columns with newlines: a text without one that it holds lies within
  // one column, so the columns need no recheck, which cost 14 µs a match (2 of the 3.3 s of reading
  // `image`'s 143,000 matches, docs/bench.md).
  const textMatch = text.includes('\n')
    ? and(
        ilike(ruleActivity.searchText, pattern),
        textMatches([ruleActivity.adId, ruleActivity.action, sql`${ruleActivity.reason}::text`], pattern),
      )!
    : ilike(ruleActivity.searchText, pattern);
  const textIdsWanted =
    (await plannerEstimate(db, db.select({ id: ruleActivity.id }).from(ruleActivity).where(textMatch))) <= countCap;
  const [found] = resultRows<{ folder_ids: number[] | null; rule_ids: number[] | null; text_ids: number[] | null }>(
    await db.execute(sql`
      with matching_folders as (
        select ${folders.id} as id from ${folders} where ${indexedContains(folders.name, text)}
        union
        select ${folders.id} from ${folders} join ${metaAdAccounts}
          on ${metaAdAccounts.adAccountId} = ${folders.adAccountId}
        where ${indexedContains(metaAdAccounts.accountName, text)})
      select (select array_agg(id) from matching_folders) as folder_ids,
             array(select ${rules.id} from ${rules} where ${indexedContains(rules.name, text)}
               limit ${MANY_RULES + 1}) as rule_ids,
             ${
               textIdsWanted
                 ? sql`array(select ${ruleActivity.id} from ${ruleActivity} where ${textMatch} limit ${countCap + 1})`
                 : sql`null::int[]`
             } as text_ids`),
  );
  const folderIds = (found?.folder_ids ?? []).map(Number);
  const ruleIds = (found?.rule_ids ?? []).map(Number);
  const textIds = found?.text_ids?.map(Number) ?? null;
  const textCondition =
    textIds === null || textIds.length > countCap
      ? textMatch
      : textIds.length
        ? sql`${ruleActivity.id} = any(${intArray(textIds)})`
        : undefined;
  // One condition per way of matching, the id tests first: as one OR, an entry they match is not
  // read for the text. Nothing named and no text found: the search matches no entry (not "no search").
  const rulesWhere =
    ruleIds.length > MANY_RULES
      ? ilike(ruleActivity.ruleSort, pattern)
      : ruleIds.length
        ? sql`${ruleActivity.ruleId} = any(${intArray(ruleIds)})`
        : undefined;
  const branches: SearchWay[] = [
    ...(folderIds.length
      ? [{ where: sql`${ruleActivity.folderId} = any(${intArray(folderIds)})`, by: 'folder' as const }]
      : []),
    ...(rulesWhere ? [{ where: rulesWhere, by: 'rule' as const }] : []),
    ...(textCondition ? [{ where: textCondition, by: 'text' as const }] : []),
  ];
  return branches.length ? branches : [{ where: sql`false`, by: 'text' }];
}

/** The pattern of a searched text tested on the entry's search text alone (no newline: no column recheck). */
function textOnly(search: unknown) {
  const text = String(search ?? '').trim();
  return text && !text.includes('\n') ? containsPattern(text) : undefined;
}

/**
 * The filters over rule_activity alone (no join: the page and count are index walks): the search's
 * ways of matching (`branches`, any of which holds) and the rest (`base`).
 */
async function ruleLogConditions(db: Database, filters: RuleLogFilters, countCap: number): Promise<RuleLogConditions> {
  const conditions: SQL[] = [eq(ruleActivity.state, 'done')];
  const branches = await searchBranches(db, filters.search, countCap);
  if (filters.rule_id_in !== undefined)
    conditions.push(inArray(ruleActivity.ruleId, idList(filters.rule_id_in).concat(-1)));
  // An entry's folder_id is its rule's folder (or, the rule gone, the one it was written with).
  if (filters.folder_id_in !== undefined)
    conditions.push(inArray(ruleActivity.folderId, idList(filters.folder_id_in).concat(-1)));
  // Ad and campaign ids are strings of digits: compared as text.
  if (filters.ad_id_in !== undefined)
    conditions.push(inArray(ruleActivity.adId, commaList(filters.ad_id_in).concat('')));
  return { base: and(...conditions)!, branches, narrowed: conditions.length > 1 };
}

/** The sort keys of an entry within its folder, as the walk's lateral subquery names them. */
const WITHIN_FOLDER = sortColumnsOf('within_folder');

/**
 * The Client / Ad account sort as a walk: folders by name, and each folder's entries in the rest
 * of the sort, at most as many as the page reaches (a lateral subquery on the folder's index),
 * until the page is full. Joined as one statement, PostgreSQL joins every match to the folders
 * and sorts them all (19 s for a page of `search=CPL`, docs/bench.md). Folders of one name
 * share their place, their entries sorted together as before.
 */
function folderWalk(raw: unknown, descending: boolean): Walk {
  const rest = commaList(raw)
    .filter((key) => !FOLDER_KEYS.has(sortKeyName(key)))
    .join(',');
  const id = (column: SQL | typeof ruleActivity.id) => (descending ? desc(column) : asc(column));
  const inner = [...orderingTerms(rest, ORDERING, []), id(ruleActivity.id)];
  const outer = [
    descending ? desc(folders.name) : asc(folders.name),
    ...orderingTerms(rest, WITHIN_FOLDER, []),
    id(WITHIN_FOLDER.id),
  ];
  return (where, limit, offset) =>
    sql`select within_folder.id from ${folders} cross join lateral (
        select ${ruleActivity.id}, ${ruleActivity.createdAt}, ${ruleActivity.action}, ${ruleActivity.adId},
          ${ruleActivity.ruleSort}
        from ${ruleActivity} where ${ruleActivity.folderId} = ${folders.id} and ${where}
        order by ${sql.join(inner, sql`, `)} limit ${offset + limit}) as within_folder
      order by ${sql.join(outer, sql`, `)} limit ${limit} offset ${offset}`;
}

/**
 * The page's ids when the Client / Ad account sort comes first: the entries with a folder, folders
 * walked by name and each one's entries by id (or, for a narrow filter, its matches sorted), and
 * those whose folder is gone, whose name is null: after the others ascending, before them
 * descending (PostgreSQL's order for nulls).
 */
function pageIdsByFolder(
  db: Database,
  conditions: RuleLogConditions,
  raw: unknown,
  descending: boolean,
  paging: PageRequest,
) {
  const named: IdQuery = (where) =>
    db
      .select({ id: ruleActivity.id })
      .from(ruleActivity)
      .innerJoin(folders, eq(folders.id, ruleActivity.folderId))
      .where(where)
      .$dynamic();
  const nameless: IdQuery = (where) =>
    db
      .select({ id: ruleActivity.id })
      .from(ruleActivity)
      .where(and(where, isNull(ruleActivity.folderId)))
      .$dynamic();
  const namedPage = idsOfPage(
    db,
    pageOf(
      db,
      named,
      sql`${folders.id} is not null`,
      conditions,
      raw,
      orderingWithId(raw, ORDERING, [], ruleActivity.id),
      folderWalk(raw, descending),
    ),
  );
  const namelessPage = idsOfPage(
    db,
    pageOf(
      db,
      nameless,
      isNull(ruleActivity.folderId),
      conditions,
      raw,
      orderingWithId(raw, NO_FOLDER_ORDERING, [], ruleActivity.id),
    ),
  );
  const where = and(conditions.base, conditions.branches ? or(...conditions.branches.map((b) => b.where)) : undefined)!;
  const countOf = (part: IdQuery) => async (upTo: number) =>
    Number(
      resultRows<{ n: number }>(
        await db.execute(sql`select count(*)::int as n from (${part(where)} limit ${upTo}) as part`),
      )[0]?.n ?? 0,
    );
  return descending
    ? pageAcross(namelessPage, namedPage, countOf(nameless), paging)
    : pageAcross(namedPage, namelessPage, countOf(named), paging);
}

/**
 * The Ad id sort with a search, walked on the index that carries each entry's search text and time
 * (migration 0029), so an entry is tested without reading the table. That index holds the entries
 * whose id is positive (all of them): the condition, written here alone, is what lets the planner
 * use it, and keeps it from the statements that find the matches through the trigram index.
 */
const adIdTextWalk =
  (query: IdQuery, ordering: SQL[]): Walk =>
  (where, limit, offset) =>
    sql`${query(and(where, sql`${ruleActivity.id} > 0`)!)
      .orderBy(...ordering)
      .limit(limit)
      .offset(offset)}`;

/** The walk of a search along its first sort key, when that key has its own (else pageOf's default). */
function walkOf(
  db: Database,
  conditions: RuleLogConditions,
  keys: string[],
  filters: RuleLogFilters,
  query: IdQuery,
  ordering: SQL[],
): Walk | undefined {
  if (!conditions.branches || keys.some((key) => FOLDER_KEYS.has(sortKeyName(key)))) return undefined;
  const [first] = keys.map(sortKeyName);
  // Sorted by action first: action by action (ruleLogActions.ts).
  if (first === 'action')
    return actionWalk(
      db,
      conditions.base,
      filters.ordering,
      ordering,
      keys[0]!.startsWith('-'),
      textOnly(filters.search),
    );
  if (first === 'ad_id') return adIdTextWalk(query, ordering);
  return undefined;
}

/**
 * One page of finished entries, newest first unless ordered otherwise: the page's ids first (an
 * index walk over rule_activity, index-only for the default order even at a deep offset), then
 * the rule, folder, account, exemption and run of those entries only.
 */
export async function listRuleLog(
  db: Database,
  paging: PageRequest,
  filters: RuleLogFilters,
  countCap = DEFAULT_COUNT_CAP,
): Promise<Slice<RuleLogEntryDto>> {
  const conditions = await ruleLogConditions(db, filters, countCap);
  const where = and(conditions.base, conditions.branches ? or(...conditions.branches.map((b) => b.where)) : undefined)!;
  const ordering = orderingWithId(filters.ordering, ORDERING, [desc(ruleActivity.createdAt)], ruleActivity.id);
  const keys = commaList(filters.ordering).filter((k) => Object.hasOwn(ORDERING, sortKeyName(k)));
  const isFolderKey = (key: string) => FOLDER_KEYS.has(sortKeyName(key));
  const pageRows = { limit: paging.limit + 1, offset: paging.offset };
  // A folder name later in the ordering: the entries joined to their folders (null when gone).
  const plain: IdQuery = keys.some(isFolderKey)
    ? (w) =>
        db
          .select({ id: ruleActivity.id })
          .from(ruleActivity)
          .leftJoin(folders, eq(folders.id, ruleActivity.folderId))
          .where(w)
          .$dynamic()
    : (w) => db.select({ id: ruleActivity.id }).from(ruleActivity).where(w).$dynamic();
  // The folder sort's page may span two parts, so its ids come first; any other page's statement
  // is nested in the one reading its rows.
  const pageRowsWhere =
    keys[0] && isFolderKey(keys[0])
      ? pageIdsByFolder(db, conditions, filters.ordering, keys[0].startsWith('-'), pageRows).then((ids) =>
          inArray(ruleActivity.id, ids.length ? ids : [-1]),
        )
      : pageOf(
          db,
          plain,
          undefined,
          conditions,
          filters.ordering,
          ordering,
          walkOf(db, conditions, keys, filters, plain, ordering),
        )(pageRows.limit, pageRows.offset).then((statement) => sql`${ruleActivity.id} in (${statement})`);
  return estimatedSlice(
    paging,
    pageRowsWhere.then((where) => entries(db, where, ordering)),
    () => countMatching(db, db.select({ id: ruleActivity.id }).from(ruleActivity).where(where), countCap),
  );
}

/** The rule log and the rules' exemptions over one database, as the engine's routes read them. */
export function createRuleLogStore(db: Database, countCap: number) {
  return {
    list: (paging: PageRequest, filters: RuleLogFilters) => listRuleLog(db, paging, filters, countCap),
    byIds: (ids: number[]) => entriesByIds(db, ids),
    exemptions: (ruleId: number) => listExemptions(db, ruleId),
    removeExemption: (ruleId: number, objectId: string) => removeExemption(db, ruleId, objectId),
  };
}
