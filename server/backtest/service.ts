/**
 * A backtest of a rule body — saved or not — on one folder's ad account: checks the request, loads
 * the account's metric history over the span (and, for a rule with an outcome task, what its leads
 * became, as known at each hour), replays the rule and reads what each pause meant. Reads the
 * database and, for a rule with conditions on ad sets or a budget action, the platform's ad sets,
 * campaigns and budgets as they are now (the history keeps neither ad sets nor budgets); nothing is
 * sent to the ad platform.
 */
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { MAX_ID } from '../http/params';
import { judgingSchema } from '../../shared/judging';
import { readBudgetLimits, type BudgetLimits } from '../../shared/budgetLimits';
import { isBudgetAction, ruleActionFieldSchema } from '../../shared/ruleActions';
import { readsOf, ruleConditionsSchema } from '../../shared/ruleConditions';
import type { BudgetObject } from '../judgement/budgets/types';
import { RULE_MESSAGES } from '../../shared/rules';
import { isWeekSchedule } from '../../shared/schedule';
import type { Database } from '../db/client';
import { folders, metaAdAccounts, ruleExemptions, rules } from '../db/schema/index';
import type { BlastLimits } from '../judgement/blastRadius';
import { switchesOf } from '../run/onOffHistory';
import { readsOutcomes } from '../judgement/outcomeTasks';
import { readsOutcomes as conditionsReadOutcomes } from '../judgement/conditions/evaluateConditions';
import { HOUR_MS, DAY_MS } from '../history/reading';
import { historyCoverage } from '../history/store';
import { loadTimeline } from '../history/timeline';
import { ApiError, notFound, ValidationError } from '../http/errors';
import { createOutcomeStore } from '../outcomes/store';
import { isValidTimezone } from '../rules/timezones';
import { outcomesOf, type BacktestDay, type BacktestTotals, type PauseOutcome } from './outcome';
import type { BacktestBudgetChange, BacktestBudgetTotals } from '../../shared/backtest';
import { budgetOutcomesOf } from './budgetOutcome';
import { replay } from './replay';
import {
  backtestRuleOf,
  lookBackDaysOf,
  metricsRead,
  ruleItemErrors,
  settingsOf,
  type SavedRuleSettings,
} from './ruleSettings';

/** The spans the editor offers; the API takes any whole number of days up to the longest. */
export const BACKTEST_DAYS = [7, 14, 30] as const;
export const MAX_BACKTEST_DAYS = 30;

const item = z.object({
  name: z.string(),
  values: z.unknown(),
  is_active: z.boolean(),
});

export const backtestRequestSchema = z.object({
  folder: z.number().int().positive().max(MAX_ID).describe('The folder whose ad account history is used'),
  rule_id: z.number().int().positive().max(MAX_ID).nullish().describe('The saved rule: its exemptions apply'),
  days: z.number().int().describe(`Days back from now (1–${MAX_BACKTEST_DAYS})`),
  rule: z.object({
    name: z.string().optional(),
    rule_filter: z.array(item),
    rule_task: z.array(item),
    rule_schedule: z.object({
      schedule: z.unknown().refine(isWeekSchedule, RULE_MESSAGES.scheduleShape),
      timezone: z.string().refine(isValidTimezone, RULE_MESSAGES.unknownTimezone),
    }),
    judging: judgingSchema
      .optional()
      .describe("How it judges late data; default the saved rule's, else a new rule's (shared/judging.ts)"),
    conditions: ruleConditionsSchema
      .optional()
      .describe("The rule's conditions (null: none); absent: the saved rule's"),
    action: ruleActionFieldSchema.optional().describe("What the conditions do (null: none); absent: the saved rule's"),
  }),
});

export type BacktestRequest = z.infer<typeof backtestRequestSchema>;

export interface BacktestResult {
  rule: { id: number | null; name: string };
  account: { ad_account_id: string; account_name: string; currency: string };
  from: string;
  to: string;
  days: number;
  timezone: string;
  /** Scheduled hours replayed, and those the history had nothing for yet. */
  slots: number;
  slots_without_data: number;
  history: { first: string | null; last: string | null; settled_share: number };
  totals: BacktestTotals;
  by_day: BacktestDay[];
  results: PauseOutcome[];
  /** A budget rule: the changes it would have made, the ceilings that cut them, and their money. */
  budget_changes?: BacktestBudgetChange[];
  ceilings_met?: Record<string, number>;
  budget_totals?: BacktestBudgetTotals;
  budgets_from?: 'now';
}

export interface BacktestOptions {
  now: Date;
  limits?: BlastLimits;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
  /** The account's ad sets and campaigns with their budgets, and each ad's ad set, as they are now. */
  platformNow?: (adAccountId: string) => Promise<PlatformNow>;
}

/** What the platform says now of an account's budgets and ad sets (the history keeps neither). */
export interface PlatformNow {
  budgets: BudgetObject[];
  adsetOfAd: Map<string, string>;
}

/** Everything checkable before the work starts: 400 with the field's message, 404 for a folder. */
export async function prepareBacktest(db: Database, request: BacktestRequest) {
  if (request.days < 1 || request.days > MAX_BACKTEST_DAYS)
    throw new ValidationError({
      days: [`A backtest covers 1 to ${MAX_BACKTEST_DAYS} days of history (7, 14 or 30 in the editor).`],
    });
  const [folder] = await db
    .select({
      adAccountId: folders.adAccountId,
      accountName: metaAdAccounts.accountName,
      currency: metaAdAccounts.currency,
      timezone: metaAdAccounts.timezoneName,
      budgetLimits: folders.budgetLimits,
    })
    .from(folders)
    .leftJoin(metaAdAccounts, eq(metaAdAccounts.adAccountId, folders.adAccountId))
    .where(and(eq(folders.id, request.folder), eq(folders.isDeleted, false)));
  if (!folder) throw notFound();
  let saved: SavedRuleSettings | null = null;
  if (request.rule_id) {
    const [rule] = await db
      .select({ id: rules.id, judging: rules.judging, conditions: rules.conditions, action: rules.action })
      .from(rules)
      .where(and(eq(rules.id, request.rule_id), eq(rules.folderId, request.folder)));
    if (!rule) throw new ValidationError({ rule_id: ['This rule is not in the folder.'] });
    saved = rule;
  }
  // What the body leaves out is the saved rule's.
  const settings = settingsOf(request.rule, saved);
  const errors = ruleItemErrors(request.rule, settings);
  if (errors) throw new ApiError(400, errors);
  const coverage = await historyCoverage(db, folder.adAccountId);
  const accountName = folder.accountName ?? folder.adAccountId;
  if (!coverage.readings)
    throw new ApiError(400, {
      detail: `There is no metric history for the ad account "${accountName}" yet. It is kept from each run of its rules; fill it from the platform's breakdowns (Fill history) to try a rule now.`,
    });
  return {
    account: {
      adAccountId: folder.adAccountId,
      accountName,
      currency: folder.currency ?? 'USD',
      timezone: folder.timezone ?? null,
    },
    coverage,
    ...settings,
    budgetLimits: readBudgetLimits(folder.budgetLimits) as BudgetLimits,
  };
}

export async function runBacktest(
  db: Database,
  request: BacktestRequest,
  prepared: Awaited<ReturnType<typeof prepareBacktest>>,
  options: BacktestOptions,
): Promise<BacktestResult> {
  const { account, coverage, judging, conditions, action } = prepared;
  const toMs = Math.floor(options.now.getTime() / HOUR_MS) * HOUR_MS + HOUR_MS;
  const fromMs = toMs - request.days * DAY_MS;
  const rule = backtestRuleOf(request.rule, request.rule_id ?? null, { judging, conditions, action });
  const lookBackDays = lookBackDaysOf(judging, conditions);
  const budgetRule = Boolean(action && isBudgetAction(action.kind));
  const needsPlatform = budgetRule || readsOf(conditions).some((r) => r.of === 'adset') || action?.level === 'adset';
  if (budgetRule && !options.platformNow)
    throw new Error('The ad platform is not configured on this server: the budgets to start from cannot be read.');
  const platform = needsPlatform && options.platformNow ? await options.platformNow(account.adAccountId) : null;
  const turnOnsSince = fromMs - Math.max(judging.cooldown_hours, judging.revive_hours ?? 0) * HOUR_MS;
  const timeline = await loadTimeline(
    db,
    account.adAccountId,
    fromMs,
    toMs,
    lookBackDays,
    undefined,
    metricsRead(rule, judging),
  );
  const objectIds = [...new Set(timeline.ads.flatMap((s) => [s.adId, s.campaignId]))];
  const [exemptions, switches, quality] = await Promise.all([
    request.rule_id
      ? db
          .select({ objectId: ruleExemptions.objectId, createdAt: ruleExemptions.createdAt })
          .from(ruleExemptions)
          .where(eq(ruleExemptions.ruleId, request.rule_id))
      : Promise.resolve([]),
    switchesOf(db, objectIds, new Date(turnOnsSince)),
    readsOutcomes(rule) || conditionsReadOutcomes(conditions)
      ? createOutcomeStore(db).history(account.adAccountId, fromMs, toMs)
      : null,
  ]);
  const replayed = await replay({
    rule,
    timeline,
    currency: account.currency,
    accountZone: account.timezone ?? rule.timezone,
    fromMs,
    toMs,
    exemptions: exemptions.map((e) => ({ objectId: e.objectId, sinceMs: e.createdAt.getTime() })),
    turnOns: switches.filter((s) => s.turned === 'on').map((s) => ({ objectId: s.objectId, atMs: s.at.getTime() })),
    limits: options.limits,
    ...(quality ? { qualityAt: (atMs: number) => quality.at(atMs) } : {}),
    ...(platform ? { adsetOfAd: platform.adsetOfAd } : {}),
    ...(budgetRule ? { budgets: { now: platform?.budgets ?? [], limits: prepared.budgetLimits } } : {}),
    signal: options.signal,
    onProgress: options.onProgress,
  });
  const { results, totals, days } = outcomesOf(replayed.pauses, rule, timeline, { fromMs, toMs });
  return {
    rule: { id: request.rule_id ?? null, name: rule.name },
    account: { ad_account_id: account.adAccountId, account_name: account.accountName, currency: account.currency },
    from: new Date(fromMs).toISOString(),
    to: new Date(toMs).toISOString(),
    days: request.days,
    timezone: rule.timezone,
    slots: replayed.slots,
    slots_without_data: replayed.slotsWithoutData,
    history: {
      first: coverage.first,
      last: coverage.last,
      settled_share: coverage.readings ? Math.round((coverage.settledReadings / coverage.readings) * 1000) / 1000 : 0,
    },
    totals,
    by_day: days,
    results,
    ...(budgetRule
      ? {
          ...budgetOutcomesOf(replayed, timeline),
          budgets_from: 'now' as const,
        }
      : {}),
  };
}

/** Backtests over one database, as their routes prepare and run them. */
export function createBacktests(db: Database) {
  return {
    prepare: (request: BacktestRequest) => prepareBacktest(db, request),
    run: (request: BacktestRequest, prepared: Awaited<ReturnType<typeof prepareBacktest>>, options: BacktestOptions) =>
      runBacktest(db, request, prepared, options),
  };
}
