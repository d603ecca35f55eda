/**
 * EXPLAIN ANALYZE of the exact statements each API call ran (captured from drizzle), on the large
 * database: for every scan of a big table, whether it went through an index or read the table
 * sequentially, and how many rows it read.
 */
import type { DbHandle } from '../server/db/client';
import type { BenchApp } from './app';
import type { ApiCall } from './calls';
import type { QueryRecorder } from './databases';

/** Tables that grow with the number of clients; the rest (users, groups, ad accounts) stay small. */
export const BIG_TABLES = new Set(['folders', 'rules', 'rule_items', 'audit_log', 'rule_activity', 'campaigns']);

export interface TableScan {
  table: string;
  /** 'Seq Scan', 'Index Scan', 'Index Only Scan', 'Bitmap Heap Scan' … */
  node: string;
  indexes: string[];
  rowsRead: number;
}

export interface ExplainedQuery {
  sql: string;
  /** count: the page's total (`count`), which reads every matching row; rows: a page of results or their details. */
  role: 'count' | 'rows';
  scans: TableScan[];
  seqScans: TableScan[];
  rowsRead: number;
  plan: string;
}

export interface ExplainedCall {
  endpoint: string;
  name: string;
  url: string;
  queries: ExplainedQuery[];
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

function indexesBelow(node: PlanNode): string[] {
  const own = node['Index Name'] ? [node['Index Name']] : [];
  return own.concat(...(node.Plans ?? []).map(indexesBelow));
}

function tableScans(node: PlanNode, into: TableScan[] = []): TableScan[] {
  const table = node['Relation Name'];
  if (table && BIG_TABLES.has(table)) {
    const loops = node['Actual Loops'] ?? 1;
    const rows =
      (node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0);
    // A bitmap heap scan's index is named on its Bitmap Index Scan children.
    const indexes =
      node['Node Type'] === 'Bitmap Heap Scan' ? indexesBelow(node) : node['Index Name'] ? [node['Index Name']] : [];
    into.push({ table, node: node['Node Type'], indexes, rowsRead: Math.round(rows * loops) });
    if (node['Node Type'] === 'Bitmap Heap Scan') return into;
  }
  for (const child of node.Plans ?? []) tableScans(child, into);
  return into;
}

async function explainOne(dbh: DbHandle, sql: string, params: unknown[]): Promise<ExplainedQuery> {
  const json = await dbh.sql.query<{ 'QUERY PLAN': unknown }>(`explain (analyze, format json) ${sql}`, params);
  const raw = json.rows[0]!['QUERY PLAN'];
  const parsed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
  const scans = tableScans(parsed[0]!.Plan);
  const text = await dbh.sql.query<{ 'QUERY PLAN': string }>(
    `explain (analyze, costs off, timing off, summary off) ${sql}`,
    params,
  );
  return {
    sql,
    role: /^\s*select count\(/i.test(sql) ? 'count' : 'rows',
    scans,
    seqScans: scans.filter((s) => s.node === 'Seq Scan'),
    rowsRead: scans.reduce((sum, s) => sum + s.rowsRead, 0),
    plan: text.rows.map((r) => r['QUERY PLAN']).join('\n'),
  };
}

export async function explainCalls(
  dbh: DbHandle,
  recorder: QueryRecorder,
  app: BenchApp,
  calls: ApiCall[],
): Promise<ExplainedCall[]> {
  const explained: ExplainedCall[] = [];
  for (const call of calls) {
    const statements = await recorder.capture(() => app.get(call.url));
    const queries: ExplainedQuery[] = [];
    for (const statement of statements) {
      if (!/^\s*(with|select)\b/i.test(statement.sql)) continue;
      const query = await explainOne(dbh, statement.sql, statement.params);
      if (query.scans.length) queries.push(query);
    }
    explained.push({ endpoint: call.endpoint, name: call.name, url: call.url, queries });
  }
  return explained;
}
