/**
 * Paging the Activity's entries (server/engine/ruleLog.ts): a search's ways of matching paged one by
 * one then together, small ones read and sorted apart, and a sort made of two parts.
 */
import { and, desc, or, sql, type SQL } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client';
import { folders, ruleActivity } from '../db/schema/index';
import { commaList, orderingWithId, plannerEstimate, resultRows, type PageRequest } from '../http/pagination';
import { readAndSort, readThenSort } from '../http/readOrWalk';

/** The same sorts over entries read first (`found`, pageOf). */
const FOUND_ORDERING = {
  created_at: sql`found.created_at`,
  action: sql`found.action`,
  ad_id: sql`found.ad_id`,
  client_account: sql`found.folder_name`,
  folder_name: sql`found.folder_name`,
  rule: sql`found.rule_sort`,
  rule_name: sql`found.rule_sort`,
  id: sql`found.id`,
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

/** The first sort key named by `ordering=` (without its direction), if any. */
const firstKey = (raw: unknown) =>
  commaList(raw)
    .map((key) => key.replace(/^-/, ''))
    .find((key) => Object.hasOwn(FOUND_ORDERING, key)) ?? 'created_at';

/** The ids of one page of a sort (`limit` rows from `offset`). */
export type PageIds = (limit: number, offset: number) => Promise<number[]>;
/** The ids of the entries a condition holds for, joined as the sort needs. */
export type IdQuery = (where: SQL) => PgSelect;

/**
 * The ids of the entries `where` holds for, in the sort, `limit` of them from `offset`: a walk along
 * the sort's index that stops once the page is full (the Client / Ad account sort walks folders by
 * name and each folder's entries, server/engine/ruleLog.ts).
 */
export type Walk = (where: SQL, limit: number, offset: number) => SQL;

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
): PageIds {
  const idsOf = (where: SQL | undefined) => db.select({ id: ruleActivity.id }).from(ruleActivity).where(where);
  const sorted = orderingWithId(raw, FOUND_ORDERING, [desc(sql`found.created_at`)], sql`found.id`);
  const isRead = async (way: SearchWay | undefined, rows: number) =>
    readAndSort({
      matches: await plannerEstimate(db, idsOf(and(base, way?.where))),
      tableRows: await plannerEstimate(db, idsOf(undefined)),
      rowsWanted: rows,
      spread: spreadAlong(firstKey(raw), way?.by),
      textTested: way?.by === 'text',
    });
  // Read, then sorted apart: joined to the sort as one statement, the planner still walks folders
  // by name guessing the matches are spread evenly among them.
  const readPage = (way: SearchWay | undefined, rows: number, offset = 0) =>
    readThenSort(
      sql`found`,
      sql`select ${ruleActivity.id}, ${ruleActivity.createdAt}, ${ruleActivity.action}, ${ruleActivity.adId},
          ${ruleActivity.ruleSort}, ${folders.name} as folder_name
        from ${ruleActivity} left join ${folders} on ${folders.id} = ${ruleActivity.folderId}
        where ${and(base, way?.where, part)}`,
      sorted,
      rows,
      sql`id`,
      offset,
    );
  return async (limit, offset) => {
    const rowsWanted = offset + limit;
    // Each way on its own; the id filters alone (a rule's, a folder's or an ad's entries) too, so
    // they may be read and sorted rather than walked.
    const ways = branches ?? (narrowed ? [undefined] : []);
    const read = await Promise.all(ways.map((way) => isRead(way, rowsWanted)));
    const readWays = ways.filter((_, i) => read[i]);
    const walkedWays = ways.filter((_, i) => !read[i]);
    const walkWhere = and(base, or(...walkedWays.map((way) => way?.where)))!;
    let statement: SQL;
    if (!readWays.length) statement = walk(walkWhere, limit, offset);
    else if (readWays.length === 1 && !walkedWays.length) statement = readPage(readWays[0], limit, offset);
    else {
      const parts = readWays.map((way) => readPage(way, rowsWanted));
      if (walkedWays.length) parts.push(sql`(${walk(walkWhere, rowsWanted, 0)})`);
      statement = sql`${query(sql`${ruleActivity.id} in (${sql.join(parts, sql` union `)})`)
        .orderBy(...ordering)
        .limit(limit)
        .offset(offset)}`;
    }
    return resultRows<{ id: number }>(await db.execute(statement)).map((r) => Number(r.id));
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
