/**
 * The rule evaluator (docs/engine.md): a pure function from a rule and one ad account's snapshot
 * (statuses + lifetime ad-level insights) to the turn-offs the rule asks for, each with a
 * readable reason. Scheduling, I/O and retries wrap around it; Preview calls it as it is.
 */
import type { Ad, AttributionWindowKey, Campaign, InsightRow } from '../adplatform/types';
import type { AdQuality } from '../outcomes/quality';
import { above, atLeast, below } from './compare';
import { OUTCOME_CHECKS, type OutcomeCheck } from './outcomeTasks';
import { rowMetrics, sumMetrics, type ObjectMetrics } from './objectMetrics';
import { websiteLeadCount } from '../adplatform/insightValues';
import { isOn } from './deliveryStatus';
import { taskThresholds, type TaskName, type EngineRule, type RuleItem } from './ruleShape';
import { count, money, percent } from './format';
import {
  LEAD_TASKS,
  coolingDown,
  leadsMayArriveLate,
  hourlyByAd,
  objectFacts,
  settledSpend,
  tooEarly,
  type HourlyRow,
  type ObjectFacts,
  type ObjectHistory,
} from './lateData';
import { CARRIED_OVER_JUDGING, isRemovedWindow, windowName, type RuleJudging } from '../../shared/judging';
import type { RunVerdict, TurnOffAction } from '../../shared/contracts';
import type { ConditionValueDto } from '../../shared/budgetChanges';
import {
  CONDITIONS_TASK,
  judgeConditions,
  type ConditionsJudgement,
  type PlannedBudget,
  type SwitchPlan,
} from './conditions/judgeObjects';
import type { ConditionInputs } from './conditions/inputs';

/** A task card, or the rule's conditions (their verdict key in a run record). */
export type VerdictKey = TaskName | typeof CONDITIONS_TASK;

export interface PlannedAction {
  action: TurnOffAction;
  /** The ad id (turn_off_ad) or campaign id (turn_off_campaign): what gets paused. */
  objectId: string;
  campaignId: string;
  task: VerdictKey;
  /** Metric name → "value > threshold" text, shown as the activity's Info. */
  reason: Record<string, string>;
}

/** An ad of the snapshot, with what its leads became when an outcome store knows (outcomeTasks.ts). */
export type SnapshotAd = Ad & { quality?: AdQuality };

export interface AccountSnapshot {
  currency: string;
  campaigns: Campaign[];
  ads: SnapshotAd[];
  /** Ad-level lifetime insights of the account. */
  insights: InsightRow[];
  /** Ad-level hourly delivery of the last days (judging.ts); absent when not fetched. */
  hourly?: HourlyRow[];
  /** Where the hourly rows begin (ISO instant). */
  hourlySince?: string;
  /** Ads older than the hourly rows: the end of their first delivering day of the daily read (hourlyRead.ts). */
  deliveredBy?: Record<string, string>;
  /** Where the daily read begins (ISO instant), when a maturity asked for one. */
  dailySince?: string;
  /** When the snapshot was read (ISO instant): what "now" is for the judging settings. */
  readAt?: string;
  /** The attribution windows the insights' actions were also counted in; absent: Meta's default only. */
  attributionWindows?: AttributionWindowKey[];
  /** Why the hourly breakdown cannot be trusted: Graph answered no rows for an account that delivered (hourlyRead.ts). */
  hourlyNoRows?: string;
}

/**
 * The window a rule's leads are counted in with this snapshot: its own when the snapshot read it
 * (never one Meta removed), else Meta's default (null).
 */
export function countedWindow(judging: RuleJudging, snapshot: AccountSnapshot): AttributionWindowKey | null {
  const window = judging.attribution_window;
  if (!window || isRemovedWindow(window) || !snapshot.attributionWindows?.includes(window)) return null;
  return window;
}

/**
 * What a task concluded about one object. `held` and `would_act` are what `acted` becomes when the
 * run is held for approval or the rule only notifies (pipeline/decide.ts decides that, not the evaluator).
 */
export type Verdict = RunVerdict;

/** One object the name filters matched: what was read and each active task's verdict. */
export interface ObjectReport {
  type: 'ad' | 'adset' | 'campaign';
  id: string;
  name: string;
  campaignId: string;
  /** null: the platform reported no usable metrics (no row, or no spend or impressions). */
  metrics: ObjectMetrics | null;
  verdicts: Partial<Record<VerdictKey, Verdict>>;
  /** A rule with conditions: each condition's value on this object. */
  conditions?: ConditionValueDto[];
}

export interface Evaluation {
  actions: PlannedAction[];
  /** Active tasks that could not be evaluated (e.g. a threshold that is not a number). */
  problems: string[];
  objects: ObjectReport[];
  /** Ads of the account delivering now (any campaign): the base of the blast-radius share. */
  deliveringAds: number;
  /** The names of the objects' campaigns, by id (run records show them). */
  campaignNames: Record<string, string>;
  /** The budget changes a budget action asks for, before the folder's ceilings (budgets/claim.ts). */
  budgetPlans: PlannedBudget[];
  /** A turn_on action: the paused objects its conditions turn on. */
  turnOns: SwitchPlan[];
  /** Objects a budget action cannot change, and why (a lifetime budget …). */
  budgetRefused: { objectId: string; name: string; reason: string }[];
  /** A raising rule: each object's cost on the rule's line now (the roll-back's judge). */
  costNow?: Map<string, { cost: number | null; spend: number | null }>;
}

export interface EvaluateOptions {
  /** Object ids a user turned back on (Undo): this rule leaves them alone. */
  exempt?: ReadonlySet<string>;
  /** Each object's on/off history (cool-down). */
  history?: ReadonlyMap<string, ObjectHistory>;
  /** The time the rule judges at; default the snapshot's readAt, else the clock. */
  now?: Date;
  /** What a rule with conditions reads beside the snapshot (conditions/inputs.ts). */
  inputs?: ConditionInputs;
}

function containsAny(name: string, items: string[]): boolean {
  const lower = name.toLowerCase();
  return items.some((item) => item.trim() !== '' && lower.includes(item.trim().toLowerCase()));
}

function listValues(item: RuleItem | undefined): string[] {
  return Array.isArray(item?.values) ? item.values.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * Name filters (shared/rules.ts), matched case-insensitively: the contains filter always
 * applies — with no items it matches nothing, so a rule never acts on a whole account by
 * accident; the not-contains filter applies when active.
 */
export function campaignNameMatches(rule: EngineRule, name: string): boolean {
  const contains = rule.rule_filter.find((f) => f.name === 'campaign_name_contains');
  const notContains = rule.rule_filter.find((f) => f.name === 'campaign_name_not_contains');
  if (!containsAny(name, listValues(contains))) return false;
  if (notContains?.is_active && containsAny(name, listValues(notContains))) return false;
  return true;
}

export type AdCheck = (m: ObjectMetrics, t: Record<string, number>, currency: string) => Record<string, string> | null;

/** The ad-level tasks in catalogue order: when several match one ad, the first gives the reason. */
const AD_TASKS: [TaskName, AdCheck][] = [
  [
    'trigger_cpl',
    (m, t, c) => {
      if (m.leads <= 0) return null;
      const cpl = m.spend / m.leads;
      return above(cpl, t.cpl!)
        ? { CPL: `${money(cpl, c)} > ${money(t.cpl!, c)}`, Leads: count(m.leads), Spend: money(m.spend, c) }
        : null;
    },
  ],
  [
    'website_cpl',
    (m, t, c) => {
      if (m.websiteLeads <= 0) return null;
      const cpl = m.spend / m.websiteLeads;
      return above(cpl, t.cpl!)
        ? {
            'Website CPL': `${money(cpl, c)} > ${money(t.cpl!, c)}`,
            'Website leads': count(m.websiteLeads),
            Spend: money(m.spend, c),
          }
        : null;
    },
  ],
  [
    'spend_cpl_no_leads',
    (m, t, c) =>
      above(m.spend, t.spend!) && m.leads === 0
        ? { Spend: `${money(m.spend, c)} > ${money(t.spend!, c)}`, Leads: '0' }
        : null,
  ],
  [
    'spend_no_links_clicks',
    (m, t, c) =>
      above(m.spend, t.spend!) && m.linkClicks === 0
        ? { Spend: `${money(m.spend, c)} > ${money(t.spend!, c)}`, 'Link clicks': '0' }
        : null,
  ],
  [
    'spend_ctr_no_leads',
    (m, t, c) =>
      m.ctr !== null && above(m.spend, t.spend!) && below(m.ctr, t.ctr!) && m.leads === 0
        ? {
            Spend: `${money(m.spend, c)} > ${money(t.spend!, c)}`,
            CTR: `${percent(m.ctr)} < ${percent(t.ctr!)}`,
            Leads: '0',
          }
        : null,
  ],
  [
    'spend_cpc_no_leads',
    (m, t, c) =>
      m.cpc !== null && above(m.spend, t.spend!) && above(m.cpc, t.cpc!) && m.leads === 0
        ? {
            Spend: `${money(m.spend, c)} > ${money(t.spend!, c)}`,
            CPC: `${money(m.cpc, c)} > ${money(t.cpc!, c)}`,
            Leads: '0',
          }
        : null,
  ],
];

export function activeThresholds(rule: EngineRule, problems: string[]): Map<TaskName, Record<string, number>> {
  const result = new Map<TaskName, Record<string, number>>();
  for (const task of rule.rule_task) {
    if (!task.is_active) continue;
    const thresholds = taskThresholds(task);
    if (thresholds) result.set(task.name as TaskName, thresholds);
    else problems.push(`${task.name}: the threshold is not a valid number`);
  }
  return result;
}

/** The snapshot read for one rule: names, metrics and the judging facts of each object. */
export interface SnapshotView {
  judging: RuleJudging;
  now: Date;
  campaignsById: Map<string, AccountSnapshot['campaigns'][number]>;
  campaignName(id: string): string;
  metricsOf(adId: string): ObjectMetrics | null;
  /** What the ad's leads became; undefined when no outcome store knows (the outcome tasks: "no outcome data"). */
  qualityOf(adId: string): AdQuality | undefined;
  factsOf(objectId: string, impressions: number | null): ObjectFacts;
}

export function viewOf(rule: EngineRule, snapshot: AccountSnapshot, options: EvaluateOptions): SnapshotView {
  const judging = rule.judging ?? CARRIED_OVER_JUDGING;
  const window = countedWindow(judging, snapshot);
  const now = options.now ?? (snapshot.readAt ? new Date(snapshot.readAt) : new Date());
  const campaignsById = new Map(snapshot.campaigns.map((c) => [c.id, c]));
  const rowsByAd = new Map<string, InsightRow>();
  for (const row of snapshot.insights) if (row.ad_id) rowsByAd.set(row.ad_id, row);
  const hourly = hourlyByAd(snapshot.hourly);
  const qualityByAd = new Map(snapshot.ads.filter((ad) => ad.quality).map((ad) => [ad.id, ad.quality!]));
  const hourlySince = snapshot.hourlySince ? new Date(snapshot.hourlySince) : null;
  const dailySince = snapshot.dailySince ? new Date(snapshot.dailySince) : null;
  const deliveredBy = (adId: string) => {
    const by = snapshot.deliveredBy?.[adId];
    return by ? new Date(by) : dailySince;
  };
  return {
    judging,
    now,
    campaignsById,
    campaignName: (id: string) =>
      campaignsById.get(id)?.name ?? snapshot.insights.find((r) => r.campaign_id === id)?.campaign_name ?? '',
    metricsOf: (adId: string) => {
      const row = rowsByAd.get(adId);
      return row ? rowMetrics(row, window) : null;
    },
    qualityOf: (adId: string) => qualityByAd.get(adId),
    factsOf: (objectId: string, impressions: number | null) =>
      objectFacts({
        judging,
        now,
        hourly: hourly.get(objectId),
        hourlyKnown: snapshot.hourly !== undefined,
        hourlySince,
        deliveredBy: deliveredBy(objectId),
        lifetimeImpressions: impressions,
        history: options.history?.get(objectId),
        leadsMayArriveLate: leadsMayArriveLate(
          rowsByAd.get(objectId)?.optimization_goal,
          websiteLeadCount(rowsByAd.get(objectId)?.actions) ?? 0,
        ),
      }),
  };
}

/** The ad tasks a rule has switched on, in catalogue order: those on Meta's numbers, then those on what the leads became. */
export interface ActiveAdTasks {
  metric: [TaskName, AdCheck][];
  outcome: [TaskName, OutcomeCheck][];
}

/** The metric ad tasks the rule has switched on, in catalogue order (the backtest's crossing filter reads these). */
export const activeAdTasks = (thresholds: Map<TaskName, Record<string, number>>) =>
  AD_TASKS.filter(([task]) => thresholds.has(task));

export const activeAdTaskSets = (thresholds: Map<TaskName, Record<string, number>>): ActiveAdTasks => ({
  metric: activeAdTasks(thresholds),
  outcome: OUTCOME_CHECKS.filter(([task]) => thresholds.has(task)),
});

export const hasAdTasks = (tasks: ActiveAdTasks) => tasks.metric.length + tasks.outcome.length > 0;

/**
 * Each active ad task's verdict on one ad, and the reason of the first that acts. The metric tasks
 * wait for the rule's maturity (`tooEarly`); with a lag allowance the lead tasks read the spend older
 * than L hours, and a task that crosses only on the whole spend gets "lag allowance". The outcome
 * tasks mature by the event or the stage's window (outcomeTasks.ts).
 */
export function judgeAdTasks(
  tasks: ActiveAdTasks,
  thresholds: Map<TaskName, Record<string, number>>,
  ad: { metrics: ObjectMetrics; facts: ObjectFacts; quality: AdQuality | undefined; tooEarly: boolean },
  view: SnapshotView,
  currency: string,
): { verdicts: Partial<Record<TaskName, Verdict>>; acting: { task: TaskName; reason: Record<string, string> } | null } {
  const { metrics, facts } = ad;
  const verdicts: Partial<Record<TaskName, Verdict>> = {};
  let acting: { task: TaskName; reason: Record<string, string> } | null = null;
  const lagged = facts.recentSpend === null ? null : { ...metrics, spend: settledSpend(metrics.spend, facts) };
  for (const [task, check] of tasks.metric) {
    if (ad.tooEarly) {
      verdicts[task] = 'too_early';
      continue;
    }
    const limits = thresholds.get(task)!;
    const withAllowance = lagged && LEAD_TASKS.has(task);
    let reason = check(withAllowance ? lagged : metrics, limits, currency);
    if (reason && withAllowance)
      reason = {
        ...reason,
        'Lag allowance': `spend of the last ${view.judging.lag_hours} h (${money(facts.recentSpend!, currency)}) left out`,
      };
    verdicts[task] = reason
      ? 'acted'
      : withAllowance && check(metrics, limits, currency)
        ? 'lag_allowance'
        : 'under_threshold';
    if (reason && !acting) acting = { task, reason };
  }
  for (const [task, check] of tasks.outcome) {
    const judgement = check(metrics, ad.quality, thresholds.get(task)!, currency);
    verdicts[task] = judgement.verdict;
    if (judgement.verdict === 'acted' && !acting) acting = { task, reason: judgement.reason };
  }
  return { verdicts, acting };
}

/** An ad of a matching campaign; `on` is false when only an insights row names it (status unknown). */
interface AdInScope {
  id: string;
  name: string;
  campaignId: string;
  on: boolean;
}

/** What every phase of one evaluation judges with. */
interface Judge {
  view: SnapshotView;
  thresholds: Map<TaskName, Record<string, number>>;
  /** Object ids a user turned back on: left alone. */
  exempt: ReadonlySet<string>;
  currency: string;
}

/** The reports and turn-offs of one phase, in the order it judged. */
interface Judged {
  objects: ObjectReport[];
  actions: PlannedAction[];
}

export function evaluate(rule: EngineRule, snapshot: AccountSnapshot, options: EvaluateOptions = {}): Evaluation {
  const problems: string[] = [];
  const thresholds = activeThresholds(rule, problems);
  const view = viewOf(rule, snapshot, options);
  const windowProblem = attributionProblem(view.judging, snapshot);
  if (windowProblem) problems.push(windowProblem);
  const judge: Judge = { view, thresholds, exempt: options.exempt ?? new Set<string>(), currency: snapshot.currency };

  const ads = adsInScope(rule, snapshot, view.campaignName);
  const campaigns = judgeCampaignLeads(judge, ads);
  const adVerdicts = judgeAds(judge, ads, campaigns.turnedOff);
  const objects = [...campaigns.objects, ...adVerdicts.objects];
  const actions = [...campaigns.actions, ...adVerdicts.actions];
  const judged = judgeRuleConditions(rule, snapshot, options.inputs, judge);
  if (judged) {
    addConditionReports(objects, judged.objects, view.metricsOf);
    actions.push(...conditionTurnOffs(judged.turnOffs, actions, view.campaignName));
  }
  return {
    actions,
    problems,
    objects,
    deliveringAds: snapshot.ads.filter(isOn).length,
    campaignNames: campaignNamesOf(objects, view.campaignName),
    budgetPlans: judged?.budgets ?? [],
    budgetRefused: judged?.refused ?? [],
    turnOns: judged?.turnOns ?? [],
    ...(judged ? { costNow: judged.costNow } : {}),
  };
}

/** Why the rule's attribution window is not the one its leads are counted in; null when it is (or it has none). */
function attributionProblem(judging: RuleJudging, snapshot: AccountSnapshot): string | null {
  const wanted = judging.attribution_window;
  if (!wanted || countedWindow(judging, snapshot) !== null) return null;
  return isRemovedWindow(wanted)
    ? `Meta no longer reports ${windowName(wanted)} attribution: leads counted in Meta’s default window`
    : `leads counted in Meta’s default window: the account was read without ${windowName(wanted)}`;
}

/**
 * Every ad of a matching campaign: those the platform listed, and those only an insights row names
 * (deleted or unlisted: their status is unknown, so they count as off — never act blind).
 */
function adsInScope(
  rule: EngineRule,
  snapshot: AccountSnapshot,
  campaignName: (id: string) => string,
): Map<string, AdInScope> {
  const ads = new Map<string, AdInScope>();
  for (const ad of snapshot.ads) {
    if (campaignNameMatches(rule, campaignName(ad.campaign_id)))
      ads.set(ad.id, { id: ad.id, name: ad.name, campaignId: ad.campaign_id, on: isOn(ad) });
  }
  for (const row of snapshot.insights) {
    if (row.ad_id && !ads.has(row.ad_id) && campaignNameMatches(rule, campaignName(row.campaign_id)))
      ads.set(row.ad_id, { id: row.ad_id, name: row.ad_name ?? row.ad_id, campaignId: row.campaign_id, on: false });
  }
  return ads;
}

/** The campaign_leads task: each campaign of the ads in scope, turned off once its ads' leads reach the limit. */
function judgeCampaignLeads(judge: Judge, ads: Map<string, AdInScope>): Judged & { turnedOff: Set<string> } {
  const judged = { objects: [] as ObjectReport[], actions: [] as PlannedAction[], turnedOff: new Set<string>() };
  const seatLimit = judge.thresholds.get('campaign_leads');
  if (!seatLimit) return judged;
  const { campaignsById, campaignName, metricsOf } = judge.view;
  for (const [campaignId, adIds] of adIdsByCampaign(ads)) {
    const campaign = campaignsById.get(campaignId);
    const known = adIds.map(metricsOf).filter((m): m is ObjectMetrics => m !== null);
    const totals = known.length ? sumMetrics(known) : null;
    const verdict = campaignLeadsVerdict(judge, campaignId, totals, seatLimit);
    judged.objects.push({
      type: 'campaign',
      id: campaignId,
      name: campaign?.name ?? campaignName(campaignId),
      campaignId,
      metrics: totals,
      verdicts: { campaign_leads: verdict },
    });
    if (verdict !== 'acted') continue;
    judged.turnedOff.add(campaignId);
    judged.actions.push({
      action: 'turn_off_campaign',
      objectId: campaignId,
      campaignId,
      task: 'campaign_leads',
      reason: { Leads: `${count(totals!.leads)} ≥ ${count(seatLimit.leads!)}`, Campaign: campaign!.name },
    });
  }
  return judged;
}

function adIdsByCampaign(ads: Map<string, AdInScope>): Map<string, string[]> {
  const byCampaign = new Map<string, string[]>();
  for (const ad of ads.values()) byCampaign.set(ad.campaignId, [...(byCampaign.get(ad.campaignId) ?? []), ad.id]);
  return byCampaign;
}

function campaignLeadsVerdict(
  { view, exempt }: Judge,
  campaignId: string,
  totals: ObjectMetrics | null,
  seatLimit: Record<string, number>,
): Verdict {
  const campaign = view.campaignsById.get(campaignId);
  if (!campaign || !isOn(campaign)) return 'already_off';
  if (exempt.has(campaignId)) return 'exempt';
  if (!totals) return 'no_data';
  if (coolingDown(view.judging, view.factsOf(campaignId, totals.impressions), view.now)) return 'cooling_down';
  if (!atLeast(totals.leads, seatLimit.leads!)) return 'under_threshold';
  return 'acted';
}

/** The ad tasks: each ad in scope judged by every active one, turned off by the first that acts. */
function judgeAds(judge: Judge, ads: Map<string, AdInScope>, campaignsTurnedOff: ReadonlySet<string>): Judged {
  const judged: Judged = { objects: [], actions: [] };
  const adTasks = activeAdTaskSets(judge.thresholds);
  const adTaskNames = [...adTasks.metric, ...adTasks.outcome].map(([task]) => task);
  if (!adTaskNames.length) return judged;
  for (const ad of ads.values()) {
    const { report, action } = judgeAd(judge, ad, adTasks, adTaskNames, campaignsTurnedOff);
    judged.objects.push(report);
    if (action) judged.actions.push(action);
  }
  return judged;
}

function judgeAd(
  judge: Judge,
  ad: AdInScope,
  adTasks: ActiveAdTasks,
  adTaskNames: TaskName[],
  campaignsTurnedOff: ReadonlySet<string>,
): { report: ObjectReport; action: PlannedAction | null } {
  const { view, thresholds, currency } = judge;
  const metrics = view.metricsOf(ad.id);
  const report: ObjectReport = {
    type: 'ad',
    id: ad.id,
    name: ad.name,
    campaignId: ad.campaignId,
    metrics,
    verdicts: {},
  };
  const facts = metrics && view.factsOf(ad.id, metrics.impressions);
  const standing = adStanding(judge, ad, metrics, facts, campaignsTurnedOff);
  if (standing) {
    for (const task of adTaskNames) report.verdicts[task] = standing;
    return { report, action: null };
  }
  const { verdicts, acting } = judgeAdTasks(
    adTasks,
    thresholds,
    {
      metrics: metrics!,
      facts: facts!,
      quality: view.qualityOf(ad.id),
      tooEarly: tooEarly(view.judging, facts!, metrics!.impressions),
    },
    view,
    currency,
  );
  report.verdicts = verdicts;
  if (!acting) return { report, action: null };
  const action: PlannedAction = {
    action: 'turn_off_ad',
    objectId: ad.id,
    campaignId: ad.campaignId,
    task: acting.task,
    reason: { ...acting.reason, Campaign: view.campaignName(ad.campaignId), Ad: ad.name },
  };
  return { report, action };
}

/** Why none of the ad's tasks judges it (every task gets this verdict); null when they do. */
function adStanding(
  { view, exempt }: Judge,
  ad: AdInScope,
  metrics: ObjectMetrics | null,
  facts: ObjectFacts | null,
  campaignsTurnedOff: ReadonlySet<string>,
): Verdict | null {
  if (!ad.on) return 'already_off';
  if (campaignsTurnedOff.has(ad.campaignId)) return 'campaign_off';
  if (exempt.has(ad.id)) return 'exempt';
  if (!metrics) return 'no_data';
  if (coolingDown(view.judging, facts!, view.now)) return 'cooling_down';
  return null;
}

/** The rule's conditions and action judged on the snapshot; null for a rule without them. */
function judgeRuleConditions(
  rule: EngineRule,
  snapshot: AccountSnapshot,
  inputs: ConditionInputs | undefined,
  { view, exempt }: Judge,
): ConditionsJudgement | null {
  if (!rule.conditions || !rule.action) return null;
  return judgeConditions({ conditions: rule.conditions, action: rule.action }, view, snapshot, inputs, {
    inScope: (campaignId) => campaignNameMatches(rule, view.campaignName(campaignId)),
    exempt,
    attribution: countedWindow(view.judging, snapshot),
  });
}

/** The conditions' verdict on each object: on its report when a task judged it too, else on a report of its own. */
function addConditionReports(
  objects: ObjectReport[],
  judgedObjects: ConditionsJudgement['objects'],
  metricsOf: SnapshotView['metricsOf'],
): void {
  for (const object of judgedObjects) {
    const report = objects.find((o) => o.id === object.id && o.type === object.type);
    if (report) {
      report.verdicts[CONDITIONS_TASK] = object.verdict;
      report.conditions = object.conditions;
    } else
      objects.push({
        type: object.type,
        id: object.id,
        name: object.name,
        campaignId: object.campaignId,
        metrics: object.type === 'ad' ? metricsOf(object.id) : null,
        verdicts: { [CONDITIONS_TASK]: object.verdict },
        conditions: object.conditions,
      });
  }
}

/** The turn-offs the conditions ask for, but for objects a task already turns off. */
function conditionTurnOffs(
  turnOffs: ConditionsJudgement['turnOffs'],
  planned: readonly PlannedAction[],
  campaignName: (id: string) => string,
): PlannedAction[] {
  const plannedIds = new Set(planned.map((a) => a.objectId));
  return turnOffs
    .filter((off) => !plannedIds.has(off.objectId))
    .map((off) => ({
      action: off.level === 'campaign' ? 'turn_off_campaign' : 'turn_off_ad',
      objectId: off.objectId,
      campaignId: off.campaignId,
      task: CONDITIONS_TASK,
      reason: { ...off.reason, Campaign: campaignName(off.campaignId) },
    }));
}

/** The names of the objects' campaigns, by id. */
function campaignNamesOf(objects: ObjectReport[], campaignName: (id: string) => string): Record<string, string> {
  return Object.fromEntries([...new Set(objects.map((o) => o.campaignId))].map((id) => [id, campaignName(id)]));
}
