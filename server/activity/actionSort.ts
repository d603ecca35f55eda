/**
 * The Activity's Action sort as a walk per action (server/activity/ruleLogPages.ts): an action's
 * entries are walked along its index, or read through the search's own indexes when a sample of
 * them shows the search matches few there. One walk of the `(action, id)` index tested every entry
 * of the actions before the matches: `search=image&ordering=action` tested the 70,000 alerts and
 * errors, none holding the word, before its first match (docs/bench.md).
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { ruleActivity } from '../db/schema/index';
import { orderingWithId, plannerEstimate, resultRows } from '../http/pagination';
import { readAndSort, readThenSort } from '../http/readOrWalk';
import type { Walk } from './ruleLogPages';

/** How many of an action's first entries (in the sort) are tested to learn how many the search matches there. */
export const ACTION_SAMPLE = 500;

/**
 * The actions the log holds, in the database's order (a skip along the `(action, id)` index: one
 * probe an action), and whether the action's name holds the searched text (`pattern`).
 */
async function actionsInOrder(db: Database, pattern: string | undefined) {
  return resultRows<{ action: string; named: boolean }>(
    await db.execute(sql`with recursive found(action) as (
        (select ${ruleActivity.action} from ${ruleActivity} order by ${ruleActivity.action} limit 1)
        union all
        select (select r.action from ${ruleActivity} as r where r.action > found.action order by r.action limit 1)
        from found where found.action is not null)
      select action, ${pattern === undefined ? sql`false` : sql`action ilike ${pattern}`} as named
      from found where action is not null`),
  );
}

/** The sort keys over the entries an action's read keeps (`found`). */
const FOUND = {
  created_at: sql.raw('found.created_at'),
  action: sql.raw('found.action'),
  ad_id: sql.raw('found.ad_id'),
  rule: sql.raw('found.rule_sort'),
  rule_name: sql.raw('found.rule_sort'),
  id: sql.raw('found.id'),
};

/**
 * A walk (ruleLogPages.ts, `Walk`) for an ordering whose first key is the action and whose keys are
 * all the entry's own columns (`ordering`, over rule_activity; `raw`, the request's); `textPattern`,
 * the search's text way when it is the entry's search text alone (no newline in it). Action by
 * action in the sort's direction, each one's matches up to what the page still needs: the first
 * ACTION_SAMPLE entries are tested, and an action where few of them match is read (its matches
 * through the search's indexes, then sorted) rather than walked to its end.
 */
export function actionWalk(
  db: Database,
  base: SQL,
  raw: unknown,
  ordering: SQL[],
  descending: boolean,
  textPattern: string | undefined,
): Walk {
  const sorted = orderingWithId(raw, FOUND, [], FOUND.id);
  return async (where, limit, offset) => {
    const wanted = offset + limit;
    const actions = await actionsInOrder(db, textPattern);
    if (descending) actions.reverse();
    const ids: number[] = [];
    for (const { action, named } of actions) {
      if (ids.length >= wanted) break;
      const need = wanted - ids.length;
      const ofAction = and(base, eq(ruleActivity.action, action))!;
      // The entry's search text holds its action: an action named by the text is matched whole.
      if (named) {
        const all = idsOf(db, ofAction)
          .orderBy(...ordering)
          .limit(need);
        ids.push(...resultRows<{ id: number }>(await db.execute(sql`${all}`)).map((row) => Number(row.id)));
        continue;
      }
      const [sample] = resultRows<{ tested: number; hits: number }>(
        await db.execute(sql`select count(*)::int as tested, count(*) filter (where ${where})::int as hits
          from (select * from ${ruleActivity} where ${ofAction} order by ${sql.join(ordering, sql`, `)}
            limit ${ACTION_SAMPLE}) as ${ruleActivity}`),
      );
      const tested = sample?.tested ?? 0;
      const hits = sample?.hits ?? 0;
      const entries = tested < ACTION_SAMPLE ? tested : await plannerEstimate(db, idsOf(db, ofAction));
      const read =
        tested === ACTION_SAMPLE &&
        readAndSort({
          matches: (entries * hits) / tested,
          tableRows: entries,
          rowsWanted: need,
          spread: true,
          textTested: true,
        });
      const matching = and(where, eq(ruleActivity.action, action))!;
      const statement = read
        ? readThenSort(
            sql`found`,
            sql`select ${ruleActivity.id} as id, ${ruleActivity.createdAt} as created_at, ${ruleActivity.action} as action,
              ${ruleActivity.adId} as ad_id, ${ruleActivity.ruleSort} as rule_sort from ${ruleActivity} where ${matching}`,
            sorted,
            need,
          )
        : sql`${idsOf(db, matching)
            .orderBy(...ordering)
            .limit(need)}`;
      ids.push(...resultRows<{ id: number }>(await db.execute(statement)).map((row) => Number(row.id)));
    }
    return sql`select unnest(${sql.param(ids.slice(offset, wanted))}::int[]) as id`;
  };
}

const idsOf = (db: Database, where: SQL) => db.select({ id: ruleActivity.id }).from(ruleActivity).where(where);
