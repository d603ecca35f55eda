/**
 * How a big list (Log, Activity) finds the page of a narrow set of matching rows: by walking the
 * sort's index and testing each row until the page is full, or by reading every match (through
 * the filter's own indexes) and sorting them. PostgreSQL guesses the walk's length from how many
 * rows match, as if they were spread evenly along the sort; they are not when the sort follows
 * what matched (a folder's entries in the folder or ad sort), and a deep page of a walk reads
 * thousands of rows from the table for each one it keeps (docs/decisions.md, "Lists").
 */
import { sql, type SQL } from 'drizzle-orm';

/** Up to this many matches are read and sorted rather than found by a walk. */
export const READ_AND_SORT_UP_TO = 100_000;

/**
 * Up to this many matches of a text are read and sorted: each is rechecked from the table (the
 * Activity's `search=Carousel`, 150,000 matches estimated at 91,000, read in 0.9–2.5 s).
 */
export const TEXT_READ_UP_TO = 50_000;

/**
 * A row a walk tests costs about this many rows read by the filter's own indexes (a bitmap scan
 * reads the table in physical order; a walk fetches each row from where the sort's index points):
 * 20 µs against 3.6 µs on the full-size Log.
 */
const WALK_ROW_COST = 4;

export interface WalkOrRead {
  /** The planner's estimate of the matching rows. */
  matches: number;
  /** Rows in the whole table (its estimate). */
  tableRows: number;
  /** offset + limit (+ 1): how far into the matches the page reaches. */
  rowsWanted: number;
  /**
   * The matches are spread along the sort: by time always (entries are written over time whatever
   * they hold), and where what matched has nothing to do with the sort (a person's changes in the
   * folder sort); not where it follows it (a firm's ad accounts in the folder sort, a folder's ads
   * in the ad sort), where they may all sit at the walk's far end.
   */
  spread: boolean;
  /**
   * Each match read is tested by a text search as each row walked is (its trigram index only
   * narrows the rows): reading then costs as much a row as walking.
   */
  textTested?: boolean;
  /**
   * What a row a walk tests costs against a match read and sorted (default WALK_ROW_COST: the Log
   * and the Activity, tables larger than the database's memory, where each row walked is a fetch
   * from disk). A table held in memory walks a row for less than it reads and sorts one.
   */
  walkRowCost?: number;
}

/**
 * Whether to read every match and sort them (true) or walk the sort's index (false). Spread
 * matches are walked when the walk reads fewer rows (about `rows wanted × table rows ÷ matches`,
 * each costing WALK_ROW_COST); matches that may sit together are read when few enough.
 */
export function readAndSort({
  matches,
  tableRows,
  rowsWanted,
  spread,
  textTested,
  walkRowCost = WALK_ROW_COST,
}: WalkOrRead): boolean {
  if (matches > (textTested ? TEXT_READ_UP_TO : READ_AND_SORT_UP_TO)) return false;
  if (!spread) return true;
  const walked = (rowsWanted * tableRows) / Math.max(matches, 1);
  return walked * (textTested ? 1 : walkRowCost) > matches;
}

/**
 * `rows` of `matching` in `ordering` (their `columns`) from `offset`, read whole first as `name` (a
 * materialized CTE: the planner cannot turn it into a walk of the sort's index, which a subquery
 * with `offset 0` does not prevent); the ordering's terms name `name`'s columns.
 */
export const readThenSort = (
  name: SQL,
  matching: SQL,
  ordering: SQL[],
  rows: number,
  columns = sql`id`,
  offset = 0,
): SQL =>
  sql`(with ${name} as materialized (${matching}) select ${columns} from ${name}
    order by ${sql.join(ordering, sql`, `)} limit ${rows}${offset ? sql` offset ${offset}` : sql``})`;
