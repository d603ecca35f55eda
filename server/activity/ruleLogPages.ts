/**
 * Paging the Activity's entries (server/activity/ruleLogStore.ts): a search's ways of matching paged one by
 * one then together, small ones read and sorted apart, and a sort made of two parts.
 */
import { type AnyColumn, and, desc, or, sql, type SQL } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client';
import { folders, ruleActivity } from '../db/schema/index';
import {
  orderingWithId,
  plannerEstimate,
  resultRows,
  type PageRequest,
  orderingKeys,
  sortKeyName,
  firstSortTerm,
} from '../http/pagination';
import { readAndSort, readThenSort } from '../http/readOrWalk';

/** The Activity's sort keys over a subquery `alias` that keeps the sort's columns under their names (CARRIED). */
export function sortColumnsOf(alias: string) {
  const column = (name: string) => sql.raw(`${alias}.${name}`);
  return {
    created_at: column('created_at'),
    action: column('action'),
    ad_id: column('ad_id'),
    client_account: column('folder_name'),
    folder_name: column('folder_name'),
    rule: column('rule_sort'),
    rule_name: column('rule_sort'),
    id: column('id'),
  };
}

/** The same sorts over entries read first (`found`, pageOf). */
const FOUND_ORDERING = sortColumnsOf('found');

/** The columns a part of a page keeps for its sort, as `found` names them, and their types. */
const CARRIED: { name: string; source: SQL | AnyColumn; type: string }[] = [
  { name: 'id', source: ruleActivity.id, type: 'int' },
  { name: 'created_at', source: ruleActivity.createdAt, type: 'timestamptz' },
  { name: 'action', source: ruleActivity.action, type: 'text' },
  { name: 'ad_id', source: ruleActivity.adId, type: 'text' },
  { name: 'rule_sort', source: ruleActivity.ruleSort, type: 'text' },
  { name: 'folder_name', source: folders.name, type: 'text' },
];

/** Each sort key whose index a text's matches can be bounded by (pageOf): the entry's column, its `found` name and type. */
const BOUNDING: Record<string, { column: AnyColumn; name: string; type: string }> = {
  created_at: { column: ruleActivity.createdAt, name: 'created_at', type: 'timestamptz' },
  action: { column: ruleActivity.action, name: 'action', type: 'text' },
  ad_id: { column: ruleActivity.adId, name: 'ad_id', type: 'text' },
  rule: { column: ruleActivity.ruleSort, name: 'rule_sort', type: 'text' },
  rule_name: { column: ruleActivity.ruleSort, name: 'rule_sort', type: 'text' },
  id: { column: ruleActivity.id, name: 'id', type: 'int' },
};

/**
 * The Activity's conditions over rule_activity alone: `base` (finished entries and the id
 * filters), a search's ways of matching (`branches`, any of which holds), and whether an id filter
 * (rule, folder, ad) narrows the entries to a few.
 */
export interface RuleLogConditions {
  base: SQL;
  branches: SearchWay[] | undefined;
  narrowed: boolean;
}

/** One way a search matches: by the name of the entry's folder (or its ad account), of its rule, or its text. */
export interface SearchWay {
  where: SQL;
  by: 'folder' | 'rule' | 'text';
}

/**
 * Whether the entries matched `by` a way (undefined: by the id filters) are spread along the sort
 * `key`: in time and in the action sort always (every folder, rule and ad gets every kind of
 * action); a folder's or a text's in the rule sort (every folder holds rules of the same names).
 * Not a rule's in the rule sort, nor anything in the folder and ad sorts (a folder's entries, its
 * ads and the campaign names its reasons quote sit together there).
 */
function spreadAlong(key: string, by: SearchWay['by'] | undefined): boolean {
  if (key === 'created_at' || key === 'action') return true;
  if (key === 'rule' || key === 'rule_name') return by === 'folder' || by === 'text';
  return false;
}

/** The ids of one page of a sort (`limit` rows from `offset`). */
export type PageIds = (limit: number, offset: number) => Promise<number[]>;
/** The statement selecting the ids of one page of a sort (`limit` rows from `offset`), to nest in another. */
export type PageStatement = (limit: number, offset: number) => Promise<SQL>;

/** The ids a page statement selects. */
export const idsOfPage =
  (db: Database, statement: PageStatement): PageIds =>
  async (limit, offset) =>
    resultRows<{ id: number }>(await db.execute(await statement(limit, offset))).map((r) => Number(r.id));
/** The ids of the entries a condition holds for, joined as the sort needs. */
export type IdQuery = (where: SQL) => PgSelect;

/**
 * The ids of the entries `where` holds for, in the sort, `limit` of them from `offset`: a walk along
 * the sort's index that stops once the page is full (the Client / Ad account sort walks folders by
 * name and each folder's entries, server/activity/ruleLogStore.ts).
 */
export type Walk = (where: SQL, limit: number, offset: number) => SQL | Promise<SQL>;

/**
 * A page of `query` in `ordering`. A search matching in several ways (a folder's name, a rule's,
 * the text) takes the page of each way on its own, then the page of those: as one OR condition,
 * PostgreSQL walks the sort's index testing every entry, and when the matches sit far along it
 * (a folder's entries in the folder sort) it reads most of the log first (docs/bench.md). The ways
 * whose matches are read and sorted go apart; those walked go together, as one walk testing each
 * entry once (`walk`, by default the query in its order).
 */
export function pageOf(
  db: Database,
  query: IdQuery,
  part: SQL | undefined,
  { base, branches, narrowed }: RuleLogConditions,
  raw: unknown,
  ordering: SQL[],
  walk: Walk = (where, limit, offset) =>
    sql`${query(where)
      .orderBy(...ordering)
      .limit(limit)
      .offset(offset)}`,
): PageStatement {
  const idsOf = (where: SQL | undefined) => db.select({ id: ruleActivity.id }).from(ruleActivity).where(where);
  const sorted = orderingWithId(raw, FOUND_ORDERING, [desc(sql`found.created_at`)], sql`found.id`);
  // The sort's first key (the Activity's default: newest first), with and without its direction.
  const firstTerm = firstSortTerm(raw, FOUND_ORDERING) ?? '-created_at';
  const firstKey = sortKeyName(firstTerm);
  const matchesOf = (way: SearchWay | undefined) => plannerEstimate(db, idsOf(and(base, way?.where)));
  const isRead = async (way: SearchWay | undefined, rows: number) =>
    readAndSort({
      matches: await matchesOf(way),
      tableRows: await plannerEstimate(db, idsOf(undefined)),
      rowsWanted: rows,
      spread: spreadAlong(firstKey, way?.by),
      textTested: way?.by === 'text',
    });
  // Read, then sorted apart: joined to the sort as one statement, the planner still walks folders
  // by name guessing the matches are spread evenly among them. Only the sort's columns are kept,
  // and folders joined only for their names, so a folder's entries are read from its index alone.
  const keys = new Set(['id', firstKey, ...orderingKeys(raw)]);
  const byFolder = part !== undefined || keys.has('client_account') || keys.has('folder_name');
  const carried = CARRIED.filter(({ name }) =>
    name === 'folder_name'
      ? byFolder
      : name === 'rule_sort'
        ? keys.has('rule') || keys.has('rule_name')
        : keys.has(name),
  );
  const names = sql.raw(carried.map(({ name }) => name).join(', '));
  const selectList = sql.join(
    carried.map(({ name, source }) => sql`${source} as ${sql.raw(name)}`),
    sql`, `,
  );
  const entriesOf = (where: SQL | undefined) =>
    byFolder
      ? sql`select ${selectList} from ${ruleActivity} left join ${folders} on ${folders.id} = ${ruleActivity.folderId}
          where ${and(where, part)}`
      : sql`select ${selectList} from ${ruleActivity} where ${where}`;
  const readPage = (way: SearchWay | undefined, rows: number, offset = 0, selected = sql`id`) =>
    readThenSort(sql`found`, entriesOf(and(base, way?.where)), sorted, rows, selected, offset);
  /**
   * The text's matches that can reach the page: those up to the last row of another way's part
   * in the first sort key. That way (a folder's or a rule's entries, read from their own index) is
   * read first, its rows kept; the text's trigram index and the sort key's index then meet in one
   * bitmap, and only the entries in both are read and rechecked (5,000 instead of 33,500 for a
   * surname's 50th page of 100).
   */
  const boundedByAnother = async (first: SearchWay | undefined, rows: number) => {
    const bounding = BOUNDING[firstKey];
    if (!bounding) return undefined;
    const head = resultRows<Record<string, string | null>>(
      await db.execute(
        readPage(first, rows, 0, sql.raw(carried.map(({ name }) => `found.${name}::text as ${name}`).join(', '))),
      ),
    );
    const bound = head.at(-1)?.[bounding.name];
    const within =
      head.length < rows || bound === null || bound === undefined
        ? undefined
        : firstTerm.startsWith('-')
          ? sql`(${bounding.column} >= ${bound}::${sql.raw(bounding.type)} or ${bounding.column} is null)`
          : sql`${bounding.column} <= ${bound}::${sql.raw(bounding.type)}`;
    // The rows read, given back as arrays (text, so no time loses its microseconds).
    const rowsRead = sql`(select * from unnest(${sql.join(
      carried.map(
        ({ name, type }) => sql`${sql.param(head.map((row) => row[name] ?? null))}::text[]::${sql.raw(type)}[]`,
      ),
      sql`, `,
    )}) as found(${names}))`;
    return { rowsRead, within };
  };
  return async (limit, offset) => {
    const rowsWanted = offset + limit;
    // Each way on its own; the id filters alone (a rule's, a folder's or an ad's entries) too, so
    // they may be read and sorted rather than walked.
    const ways = branches ?? (narrowed ? [undefined] : []);
    const read = await Promise.all(ways.map((way) => isRead(way, rowsWanted)));
    // A text next to a folder's or a rule's entries read first is read too, bounded by them
    // (boundedByAnother) rather than walked: the walk fetched 30,000 entries for a surname's 50th page.
    const bounding = BOUNDING[firstKey];
    const boundingWay = ways.find((way, i) => read[i] && way?.by !== 'text');
    if (bounding && boundingWay && (await matchesOf(boundingWay)) >= rowsWanted)
      ways.forEach((way, i) => {
        if (way?.by === 'text') read[i] = true;
      });
    const readWays = ways.filter((_, i) => read[i]);
    const walkedWays = ways.filter((_, i) => !read[i]);
    const walkWhere = and(base, or(...walkedWays.map((way) => way?.where)))!;
    let statement: SQL;
    if (!readWays.length) statement = await walk(walkWhere, limit, offset);
    else if (readWays.length === 1 && !walkedWays.length) statement = readPage(readWays[0], limit, offset);
    else {
      const first = readWays.find((way) => way?.by !== 'text');
      const texts = readWays.filter((way) => way?.by === 'text');
      const textMatches = texts.length ? Math.max(...(await Promise.all(texts.map(matchesOf)))) : 0;
      const bounded = first && textMatches > 4 * rowsWanted ? await boundedByAnother(first, rowsWanted) : undefined;
      const parts = bounded
        ? [
            bounded.rowsRead,
            ...readWays
              .filter((way) => way !== first)
              .map((way) =>
                readPage(
                  way?.by === 'text' ? { ...way, where: and(way.where, bounded.within)! } : way,
                  rowsWanted,
                  0,
                  names,
                ),
              ),
          ]
        : readWays.map((way) => readPage(way, rowsWanted, 0, names));
      if (walkedWays.length)
        parts.push(sql`(${entriesOf(sql`${ruleActivity.id} in (${await walk(walkWhere, rowsWanted, 0)})`)})`);
      // Each part keeps the sort's columns, so their union is sorted as it is: joined back to the
      // entries by id, the planner read the whole time index to find 10,000 of them (0.7 s).
      statement = sql`select id from (${sql.join(parts, sql` union `)}) as found
        order by ${sql.join(sorted, sql`, `)} limit ${limit} offset ${offset}`;
    }
    return statement;
  };
}

/**
 * A page of a sort made of two parts, `first` wholly before `second`: the page's rows of the first,
 * then, when it runs out, of the second from where the page reaches into it. `firstCount(n)` counts
 * the first part's rows up to n (asked only when the page starts past its end).
 */
export async function pageAcross(
  first: PageIds,
  second: PageIds,
  firstCount: (upTo: number) => Promise<number>,
  { limit, offset }: PageRequest,
) {
  const head = await first(limit, offset);
  if (head.length === limit) return head;
  const firstTotal = head.length ? offset + head.length : await firstCount(offset);
  return head.concat(await second(limit - head.length, offset + head.length - firstTotal));
}
