/**
 * What a backtest replays of a rule body: its judging, conditions and action (the saved rule's
 * where the body leaves them out), whether its items may be tried, and what of the history it
 * reads — the metrics and the days before the span's first hour. The single backtest
 * (service.ts) and the fleet's preview (fleet.ts) read a rule the same way.
 */
import { NEW_RULE_JUDGING, readJudging, type RuleJudging } from '../../shared/judging';
import { ruleActionFieldSchema, type RuleAction } from '../../shared/ruleActions';
import { lastDaysOf, readsOf, ruleConditionsSchema, type ConditionGroup } from '../../shared/ruleConditions';
import { validateRuleItems } from '../../shared/rules';
import { HOURLY_DAYS } from '../run/hourlyRead';
import type { RuleItem } from '../judgement/ruleShape';
import { METRICS, type MetricName } from '../history/reading';
import type { BacktestRule } from './replay';

/** The rule body a backtest takes (service.ts, backtestRequestSchema's `rule`). */
export interface BacktestRuleBody {
  name?: string;
  rule_filter: { name: string; values?: unknown; is_active: boolean }[];
  rule_task: { name: string; values?: unknown; is_active: boolean }[];
  rule_schedule: { schedule?: unknown; timezone: string };
  judging?: RuleJudging;
  conditions?: ConditionGroup | null;
  action?: RuleAction | null;
}

/** A saved rule's settings as stored (read as the engine reads them: unreadable is none). */
export interface SavedRuleSettings {
  judging: unknown;
  conditions: unknown;
  action: unknown;
}

export interface RuleSettings {
  judging: RuleJudging;
  /** Both null unless the rule has conditions and an action. */
  conditions: ConditionGroup | null;
  action: RuleAction | null;
}

/** The body's settings, the saved rule's where the body leaves them out; a new rule's judging without either. */
export function settingsOf(body: BacktestRuleBody, saved: SavedRuleSettings | null): RuleSettings {
  let judging: RuleJudging = body.judging ?? NEW_RULE_JUDGING;
  let conditions: ConditionGroup | null = body.conditions ?? null;
  let action: RuleAction | null = body.action ?? null;
  if (saved) {
    judging = body.judging ?? readJudging(saved.judging);
    if (body.conditions === undefined)
      conditions = ruleConditionsSchema.safeParse(saved.conditions ?? null).data ?? null;
    if (body.action === undefined) action = ruleActionFieldSchema.safeParse(saved.action ?? null).data ?? null;
  }
  const acts = Boolean(conditions && action);
  return { judging, conditions: acts ? conditions : null, action: acts ? action : null };
}

/** What is wrong with the body's filters and tasks for a try on history (null: nothing), in the API's shape. */
export function ruleItemErrors(body: BacktestRuleBody, settings: RuleSettings): Record<string, unknown> | null {
  const filters = body.rule_filter as unknown as Parameters<typeof validateRuleItems>[0];
  const tasks = body.rule_task as unknown as Parameters<typeof validateRuleItems>[1];
  const errors = validateRuleItems(filters, tasks, { active: true, acts: Boolean(settings.action) });
  if (!errors) return null;
  if (errors.rule_task?.non_field_errors)
    errors.rule_task.non_field_errors = ['Turn on at least one task to try the rule on history.'];
  return errors as Record<string, unknown>;
}

/** The rule as the replay takes it. */
export function backtestRuleOf(body: BacktestRuleBody, id: number | null, settings: RuleSettings): BacktestRule {
  return {
    id: id ?? 0,
    name: body.name ?? 'Unsaved rule',
    rule_filter: body.rule_filter as RuleItem[],
    rule_task: body.rule_task as RuleItem[],
    schedule: body.rule_schedule.schedule as boolean[][],
    timezone: body.rule_schedule.timezone,
    judging: settings.judging,
    conditions: settings.conditions,
    action: settings.action,
  };
}

/**
 * The metrics the rule's active tasks and the pauses' outcomes read, beside spend and impressions.
 * With a lag allowance the website leads are read too: an instant-form ad that has had one gets the
 * allowance (server/judgement/lateData.ts, leadsMayArriveLate).
 */
export function metricsRead(rule: BacktestRule, judging: RuleJudging): MetricName[] {
  if (rule.conditions) return [...METRICS];
  const tasks = new Set(rule.rule_task.filter((t) => t.is_active).map((t) => t.name));
  const metrics: MetricName[] = ['leads'];
  if (tasks.has('website_cpl') || judging.lag_hours !== null) metrics.push('websiteLeads');
  if (tasks.has('spend_no_links_clicks')) metrics.push('linkClicks');
  if (tasks.has('spend_ctr_no_leads') || tasks.has('spend_cpc_no_leads')) metrics.push('clicks');
  return metrics;
}

/**
 * Days before the first hour the replay reads: its latest reading, the days of hourly delivery the
 * judging may read, and the days of the conditions' longest window.
 */
export function lookBackDaysOf(judging: RuleJudging, conditions: ConditionGroup | null): number {
  return Math.max(
    judging.maturity_hours > 0 || judging.lag_hours !== null ? 1 + HOURLY_DAYS : 2,
    1 + windowDays(conditions),
  );
}

/** The days the longest window of the conditions reaches back (lifetime: the history's start anyway). */
function windowDays(conditions: ConditionGroup | null): number {
  const days = readsOf(conditions).map((r) =>
    r.window === 'yesterday' ? 2 : r.window === 'today' ? 1 : (lastDaysOf(r.window) ?? 0),
  );
  return Math.max(0, ...days);
}
