/**
 * Async insight reports: `POST /{id}/insights` on an ad account, campaign, ad set or ad starts an
 * AdReportRun (`{report_run_id}`), `GET /{run}` shows its `async_status` and
 * `async_percent_completion`, `GET /{run}/insights` pages its rows. (`GET /{id}/insights` is edges.ts.)
 *
 * A run's rows are computed when it is started (the simulated moment of the POST). Each read of the
 * run moves it on by half: Job Not Started → Job Running (50 %) → Job Completed (100 %), so a client
 * polls at least twice, as it must on Graph.
 */
import {
  errorAnswer,
  notFound,
  page,
  requestedFields,
  type GraphAnswer,
  type GraphContext,
  type Params,
} from './answers';
import { parseInsightQuery } from './insightQuery';
import { insightRows, insightScope, SIMULATED_INSIGHT_FIELDS } from './insights';
import { graphDatetime, refuseFields } from './nodes';
import type { World } from './world';

interface ReportRun {
  id: string;
  accountId: string;
  timezone: string;
  startedAt: number;
  reads: number;
  rows: Record<string, unknown>[];
  dateStart: string;
  dateStop: string;
}

const STATUS_BY_PROGRESS = ['Job Not Started', 'Job Running', 'Job Completed'];
const PROGRESS_STEP = 50;

const RUN_FIELDS: Record<string, (run: ReportRun) => unknown> = {
  id: (run) => run.id,
  account_id: (run) => run.accountId,
  async_status: (run) => STATUS_BY_PROGRESS[Math.min(run.reads, 2)],
  async_percent_completion: (run) => Math.min(100, run.reads * PROGRESS_STEP),
  date_start: (run) => run.dateStart,
  date_stop: (run) => run.dateStop,
  time_ref: (run) => Math.floor(run.startedAt / 1000),
  time_completed: (run) => (run.reads >= 2 ? Math.floor(run.startedAt / 1000) : 0),
  is_running: (run) => run.reads < 2,
};

const completed = (run: ReportRun) => run.reads >= 2;

export class ReportRuns {
  private readonly runs = new Map<string, ReportRun>();
  private nextRun = 6_100_000_000_000_000;

  constructor(private readonly world: World) {}

  /** The answer to a report-run call or to starting one, or undefined when the path is neither. */
  answer(
    method: string,
    head: string,
    edge: string | undefined,
    params: Params,
    path: string,
    context: GraphContext,
    now: number,
  ): GraphAnswer | undefined {
    const run = this.runs.get(head);
    if (run) return { ...this.runAnswer(run, method, edge, params, path, context), accountId: run.accountId };
    if (edge !== 'insights' || method !== 'POST') return undefined;
    const target = insightScope(this.world, head);
    if (!target) return notFound(head);
    return { ...this.start(target, params, now), accountId: target.account.accountId };
  }

  private start(target: NonNullable<ReturnType<typeof insightScope>>, params: Params, now: number): GraphAnswer {
    const query = parseInsightQuery(params, target.account, now, target.level, ['spend']);
    if ('status' in query) return query;
    const refusal = refuseFields('AdsInsights', query.fields, SIMULATED_INSIGHT_FIELDS);
    if (refusal) return refusal;
    const rows = insightRows(this.world, now, target.account, query, target.scope);
    if ('status' in rows) return rows;
    this.nextRun += 1;
    const id = String(this.nextRun);
    const dates = rows.flatMap((row) => [String(row.date_start), String(row.date_stop)]).sort();
    const today = graphDatetime(now, target.account.timezone).slice(0, 10);
    this.runs.set(id, {
      id,
      accountId: target.account.accountId,
      timezone: target.account.timezone,
      startedAt: now,
      reads: 0,
      rows,
      dateStart: dates[0] ?? today,
      dateStop: dates.at(-1) ?? today,
    });
    return { status: 200, body: { report_run_id: id } };
  }

  private runAnswer(
    run: ReportRun,
    method: string,
    edge: string | undefined,
    params: Params,
    path: string,
    context: GraphContext,
  ): GraphAnswer {
    if (method !== 'GET') return errorAnswer(400, 100, `(#100) Unsupported post request on an AdReportRun`);
    if (edge === 'insights') {
      if (!completed(run))
        return errorAnswer(
          400,
          100,
          `(#100) Report ${run.id} is not ready: read it until async_status is Job Completed, then its insights`,
        );
      return page(run.rows, (row) => row, params, path, context);
    }
    if (edge)
      return errorAnswer(400, 100, `(#100) Tried accessing nonexisting field (${edge}) on node type (AdReportRun)`);
    const fields = requestedFields(params.fields, Object.keys(RUN_FIELDS));
    const unknown = fields.find((field) => !(field in RUN_FIELDS));
    if (unknown)
      return errorAnswer(
        400,
        100,
        `(#100) The simulator does not answer field (${unknown}) on node type (AdReportRun). Simulated fields: ${Object.keys(RUN_FIELDS).join(', ')}`,
      );
    run.reads += 1;
    const body: Record<string, unknown> = {};
    for (const field of ['id', ...fields]) body[field] = RUN_FIELDS[field]!(run);
    return { status: 200, body };
  }
}
