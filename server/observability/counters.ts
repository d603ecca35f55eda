/**
 * The product's own Prometheus metrics: rule-engine runs and actions, Graph API calls and
 * rate-limit waits, campaign syncs, list pages answered from memory. They live in prom-client's default registry, one per process,
 * so a process running the API and the worker (ROLE=all) counts both into the same series; the
 * code that does the work increments them (the engine through pipeline/record.ts, the Graph
 * client through the helpers below).
 */
import { Counter, register } from 'prom-client';

export const productRegistry = register;

export const engineRuns = new Counter({
  name: 'adrules_engine_runs_total',
  help: 'Rule runs by kind (run: scheduled, manual: Run now) and outcome',
  labelNames: ['kind', 'outcome'] as const,
});

export const engineActions = new Counter({
  name: 'adrules_engine_actions_total',
  help: 'Actions the rule engine sent to the ad platform, by action and result',
  labelNames: ['action', 'result'] as const,
});

export const engineHeldRuns = new Counter({
  name: 'adrules_engine_held_runs_total',
  help: 'Rule runs held back instead of acting',
});

export const graphCalls = new Counter({
  name: 'adrules_graph_api_calls_total',
  help: 'HTTP calls to the Graph API (a batch counts once) by outcome and HTTP status',
  labelNames: ['outcome', 'status'] as const,
});

export const graphRateLimitWaits = new Counter({
  name: 'adrules_graph_rate_limit_waits_total',
  help: 'Waits before a Graph API call: usage headers near the limit (usage) or a rate-limit refusal (refused)',
  labelNames: ['reason'] as const,
});

export const graphRateLimitWaitSeconds = new Counter({
  name: 'adrules_graph_rate_limit_wait_seconds_total',
  help: 'Time spent in those waits',
  labelNames: ['reason'] as const,
});

export const campaignSyncs = new Counter({
  name: 'adrules_campaign_syncs_total',
  help: 'Periodic campaign syncs by outcome (ok, partial: some ad accounts failed, failed)',
  labelNames: ['outcome'] as const,
});

export const listPageAnswers = new Counter({
  name: 'adrules_list_page_answers_total',
  help: 'List pages by route and where the answer came from (kept: memory, read: the database, fresh: the database because the client asked)',
  labelNames: ['route', 'source'] as const,
});

/** One HTTP call to the Graph API: its answer's status, or why none came. */
export function countGraphCall(status: number | 'timeout' | 'network'): void {
  if (typeof status !== 'number') graphCalls.inc({ outcome: status, status: 'none' });
  else graphCalls.inc({ outcome: status < 400 ? 'ok' : 'error', status: String(status) });
}

export function countRateLimitWait(reason: 'usage' | 'refused', delayMs: number): void {
  graphRateLimitWaits.inc({ reason });
  graphRateLimitWaitSeconds.inc({ reason }, delayMs / 1000);
}
