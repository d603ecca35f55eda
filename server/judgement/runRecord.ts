/**
 * The record a run leaves (rule_runs.details / counts): every object the name filters matched,
 * the metrics read and each active task's verdict, plus the planned actions of a held run.
 *
 * Stored compactly — an account can hold thousands of ads and a rule runs several times a day — as
 * arrays with one-letter verdict codes; `expandDetails` turns it back into the API's named shape.
 */
import type { ObjectMetrics } from './objectMetrics';
import type { ObjectReport, PlannedAction, Verdict } from './evaluate';
import type { TaskName } from './ruleShape';
import type { RunObjectDto } from '../../shared/contracts';
import type { BudgetChangeDto, MoneyAtRiskDto } from '../../shared/budgetChanges';
import type { PlannedBudget } from './conditions/judgeObjects';

const CODES: Record<Verdict, string> = {
  acted: 'a',
  under_threshold: 'u',
  already_off: 'o',
  campaign_off: 'c',
  exempt: 'e',
  no_data: 'n',
  held: 'h',
  would_act: 'w',
  too_early: 't',
  lag_allowance: 'l',
  cooling_down: 'd',
  revived: 'r',
  waiting_for_event: 'v',
  no_outcome_data: 'q',
};
const VERDICTS = Object.fromEntries(Object.entries(CODES).map(([verdict, code]) => [code, verdict])) as Record<
  string,
  Verdict
>;

const METRIC_KEYS = ['spend', 'leads', 'websiteLeads', 'linkClicks', 'clicks', 'impressions', 'ctr', 'cpc'] as const;

type StoredObject = [
  type: 'a' | 's' | 'c',
  id: string,
  name: string,
  campaignId: string,
  metrics: (number | null)[] | null,
  verdicts: Record<string, string>,
  /** A rule with conditions: each condition's [shown, result]. */
  conditions?: [string, boolean | null, string][],
];

const TYPE_CODES = { ad: 'a', adset: 's', campaign: 'c' } as const;
const TYPES = { a: 'ad', s: 'adset', c: 'campaign' } as const;

export interface StoredDetails {
  v: 1;
  objects: StoredObject[];
  /** The turn-offs a held run planned (what Approve carries out, if still valid). */
  planned?: PlannedAction[];
  problems?: string[];
  /** The names of the objects' campaigns, by id, as the run read them. */
  campaigns?: Record<string, string>;
  /** Each object a task acted on (or would have): what crossed the threshold, in words. */
  crossed?: Record<string, string>;
  /** Why a run was held: the numbers against the limits. */
  limits?: {
    affected: number;
    delivering: number;
    actions: number;
    maxShare: number;
    maxActions: number;
    addedDaily?: number;
    maxDailyIncrease?: number | null;
  };
  /** Budget changes the run made, would make or was cut from, as the API answers them. */
  budgets?: BudgetChangeDto[];
  money?: MoneyAtRiskDto | null;
  /** A held run's budget changes as planned: what Approve claims again (../heldRuns.ts). */
  plannedBudgets?: PlannedBudget[];
}

/** What `acted` means for this run: it acted, it was held for approval, or it only notifies. */
export type ActMode = 'act' | 'hold' | 'notify';

const actedAs: Record<ActMode, Verdict> = { act: 'acted', hold: 'held', notify: 'would_act' };

export function compactObjects(
  objects: ObjectReport[],
  mode: ActMode,
  notDone: ReadonlySet<string> = new Set(),
): StoredObject[] {
  return objects.map((o): StoredObject => {
    const stored: StoredObject = [
      TYPE_CODES[o.type],
      o.id,
      o.name,
      o.campaignId,
      o.metrics ? METRIC_KEYS.map((k) => roundMetric(o.metrics![k])) : null,
      Object.fromEntries(
        Object.entries(o.verdicts).map(([task, verdict]) => {
          // An object another rule or worker turned off first, or that is already gone, was not acted on here.
          const actual =
            verdict === 'acted' && notDone.has(o.id) ? 'already_off' : verdict === 'acted' ? actedAs[mode] : verdict;
          return [task, CODES[actual]];
        }),
      ),
    ];
    if (o.conditions)
      stored.push(o.conditions.map((c): [string, boolean | null, string] => [c.shown, c.result, c.text]));
    return stored;
  });
}

const roundMetric = (value: number | null) => (value === null ? null : Math.round(value * 10_000) / 10_000);

/** Verdict codes from what happened to an object to why nothing did (what an object is counted under). */
const STRONGEST_FIRST = ['a', 'h', 'w', 'r', 'd', 't', 'v', 'l', 'c', 'e', 'o', 'n', 'q', 'u'];

/** Counts of a run for lists and metrics: objects looked at, and how many got each verdict (any task). */
export function countVerdicts(objects: StoredObject[]): Record<string, number> {
  const counts: Record<string, number> = { objects: objects.length };
  for (const [, , , , , verdicts] of objects) {
    // An object counts once, under its strongest verdict.
    const codes = new Set(Object.values(verdicts));
    const strongest = STRONGEST_FIRST.find((code) => codes.has(code));
    if (strongest) counts[VERDICTS[strongest]!] = (counts[VERDICTS[strongest]!] ?? 0) + 1;
  }
  return counts;
}

/**
 * The conditions of an action's reason that held: its comparisons and its zero counts ('Spend $300.00
 * > $100.00 · Leads 0'; 'CPL $61.20 > $50.00'), or all its other parts when it has none. An outcome
 * task's comparison keeps the raw CPL and what the leads became beside it ('Cost per attendee $75.00
 * > $50.00 · CPL $15.00 · Show-up 12 of 40 registrants attended').
 */
export function crossedText(reason: Record<string, string>): string {
  const parts = Object.entries(reason).filter(([key]) => !CONTEXT_KEYS.has(key));
  const compares = (value: string) => /[<>≤≥]/.test(value) || value === '0';
  const shown = parts.some(([, value]) => compares(value))
    ? parts.filter(([key, value]) => compares(value) || BESIDE_KEYS.has(key))
    : parts;
  return shown.map(([key, value]) => `${key} ${value}`).join(' · ');
}

/** Parts of a reason that say where or why the run acted, not what crossed. */
const CONTEXT_KEYS = new Set(['Campaign', 'Ad', 'Run', 'Caught up', 'Lag allowance']);

/** Parts of an outcome task's reason that belong beside its comparison: the raw CPL and what the leads became. */
const BESIDE_KEYS = new Set(['CPL', 'Show-up', 'Reached']);

export function expandObjects(details: unknown): RunObjectDto[] {
  const stored = details as StoredDetails | null;
  return (stored?.objects ?? []).map(([type, id, name, campaignId, metrics, verdicts, conditions]) => ({
    type: TYPES[type] ?? 'campaign',
    id,
    name,
    campaign_id: campaignId,
    campaign_name: stored?.campaigns?.[campaignId] ?? (type === 'c' ? name : ''),
    crossed: stored?.crossed?.[id] ?? null,
    metrics: metrics
      ? (Object.fromEntries(METRIC_KEYS.map((k, i) => [snake(k), metrics[i] ?? null])) as RunObjectDto['metrics'])
      : null,
    verdicts: Object.fromEntries(
      Object.entries(verdicts).map(([task, code]) => [task as TaskName, VERDICTS[code] ?? 'no_data']),
    ),
    ...(conditions ? { conditions: conditions.map(([shown, result, text]) => ({ text, shown, result })) } : {}),
  }));
}

const snake = (key: (typeof METRIC_KEYS)[number]) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export type { ObjectMetrics };
