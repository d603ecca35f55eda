/**
 * Reading insights so that Graph's "Please reduce the amount of data you're asking for" never ends
 * a read and is never answered by sending the same call again. As Meta's insights best practices
 * advise, the call asks for less, step by step:
 * 1. smaller pages — the page that failed is asked for again with half the `limit`, down to 25;
 * 2. fewer days — a time range of two days or more is read in two halves and the rows added back
 *    together (insightRows.ts);
 * 3. an async report — `POST /{object}/insights` starts an AdReportRun, its `async_status` is
 *    polled until "Job Completed", and its rows are read from `/{report_run_id}/insights`.
 */
import { GraphApiError, GraphTooMuchDataError } from './errors';
import { mergeRows } from './insightRows';
import type { GraphTransport, InsightsReadEvent, Paged, Params, TimeRange } from './graphTransport';
import type { InsightRow } from './types';

export const MIN_PAGE_SIZE = 25;

export interface InsightsReadOptions {
  /** The first wait between polls of an async report; it doubles up to maxPollMs. */
  firstPollMs?: number;
  maxPollMs?: number;
  /** Give up on an async report that has not finished after this much waiting. */
  asyncTimeoutMs?: number;
}

interface ReportRun {
  id: string;
  async_status?: string;
  async_percent_completion?: number;
}

const DAY_MS = 86_400_000;

export class InsightsReader {
  private readonly options: Required<InsightsReadOptions>;

  constructor(
    private readonly transport: GraphTransport,
    private readonly sleep: (ms: number) => Promise<void>,
    options: InsightsReadOptions = {},
    private readonly onEvent?: (event: InsightsReadEvent) => void,
  ) {
    this.options = { firstPollMs: 1000, maxPollMs: 30_000, asyncTimeoutMs: 15 * 60_000, ...options };
  }

  /** Every row of an insights call (`path` = `act_X/insights` or `{id}/insights`). */
  async read(path: string, params: Params): Promise<InsightRow[]> {
    try {
      return await this.pages(path, params);
    } catch (error) {
      if (!(error instanceof GraphTooMuchDataError)) throw error;
    }
    const range = typeof params.time_range === 'string' ? (JSON.parse(params.time_range) as TimeRange) : undefined;
    const halves = range && halve(range);
    if (halves) {
      this.onEvent?.({ type: 'fewer-days', path, halves });
      const rows: InsightRow[] = [];
      for (const half of halves) rows.push(...(await this.read(path, { ...params, time_range: JSON.stringify(half) })));
      return mergeRows(rows, params.time_increment !== undefined);
    }
    return this.asyncReport(path, params);
  }

  /** Cursor paging that halves the page size whenever Graph asks for less, and asks for the same page again. */
  private async pages(path: string, params: Params): Promise<InsightRow[]> {
    const rows: InsightRow[] = [];
    let limit = Number(params.limit ?? 500);
    let after: string | undefined;
    const seen = new Set<string>();
    for (;;) {
      let page: Paged<InsightRow>;
      try {
        page = await this.transport.request<Paged<InsightRow>>('GET', path, { ...params, limit, after });
      } catch (error) {
        if (!(error instanceof GraphTooMuchDataError) || limit <= MIN_PAGE_SIZE) throw error;
        limit = Math.max(MIN_PAGE_SIZE, Math.floor(limit / 2));
        this.onEvent?.({ type: 'smaller-page', path, limit });
        continue;
      }
      rows.push(...(page.data ?? []));
      const next = page.paging?.next ? page.paging.cursors?.after : undefined;
      if (!next || seen.has(next)) return rows;
      seen.add(next);
      after = next;
    }
  }

  private async asyncReport(path: string, params: Params): Promise<InsightRow[]> {
    const { limit, after: _after, ...query } = params;
    const started = await this.transport.request<{ report_run_id?: string }>('POST', path, query, { idempotent: true });
    const id = started.report_run_id;
    if (!id) throw new GraphApiError(200, { message: `POST /${path} answered no report_run_id` });
    this.onEvent?.({ type: 'async-report', path, reportRunId: id });
    let waited = 0;
    for (let wait = this.options.firstPollMs; ; wait = Math.min(this.options.maxPollMs, wait * 2)) {
      const run = await this.transport.request<ReportRun>('GET', id, {
        fields: 'async_status,async_percent_completion',
      });
      if (run.async_status === 'Job Completed') break;
      if (run.async_status === 'Job Failed' || run.async_status === 'Job Skipped')
        throw new GraphApiError(200, { message: `The async insights report ${id} ended as "${run.async_status}"` });
      if (waited >= this.options.asyncTimeoutMs)
        throw new GraphApiError(200, { message: `The async insights report ${id} did not finish in ${waited} ms` });
      await this.sleep(wait);
      waited += wait;
    }
    return this.pages(`${id}/insights`, { limit: limit ?? 500 });
  }
}

/** A range of two days or more split into two halves of whole days; undefined for one day. */
function halve(range: TimeRange): [TimeRange, TimeRange] | undefined {
  const since = Date.parse(`${range.since}T00:00:00Z`);
  const until = Date.parse(`${range.until}T00:00:00Z`);
  const days = Math.round((until - since) / DAY_MS) + 1;
  if (!(days >= 2)) return undefined;
  const lastOfFirst = new Date(since + (Math.ceil(days / 2) - 1) * DAY_MS).toISOString().slice(0, 10);
  const firstOfSecond = new Date(since + Math.ceil(days / 2) * DAY_MS).toISOString().slice(0, 10);
  return [
    { since: range.since, until: lastOfFirst },
    { since: firstOfSecond, until: range.until },
  ];
}
