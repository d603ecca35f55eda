/**
 * The rule evaluator (DESIGN §5): a pure function from a rule and one ad account's snapshot
 * (statuses + lifetime ad-level insights) to the turn-offs the rule asks for, each with a
 * readable reason. Scheduling, I/O and retries wrap around it; Preview calls it as it is.
 */
import type { Ad, Campaign, InsightRow } from '../adplatform/types';
import { rowMetrics, sumMetrics, type ObjectMetrics } from './metrics';
import { isOn } from './status';
import { taskThresholds, type TaskName, type EngineRule, type RuleItem } from './ruleShape';
import { count, money, percent } from './format';
import type { TurnOffAction } from '../../src/domain/contracts';

export interface PlannedAction {
  action: TurnOffAction;
  /** The ad id (turn_off_ad) or campaign id (turn_off_campaign): what gets paused. */
  objectId: string;
  campaignId: string;
  task: TaskName;
  /** Metric name → "value > threshold" text, shown as the activity's Info. */
  reason: Record<string, string>;
}

export interface AccountSnapshot {
  currency: string;
  campaigns: Campaign[];
  ads: Ad[];
  /** Ad-level lifetime insights of the account. */
  insights: InsightRow[];
}

export interface Evaluation {
  actions: PlannedAction[];
  /** Active tasks that could not be evaluated (e.g. a threshold that is not a number). */
  problems: string[];
}

export interface EvaluateOptions {
  /** Object ids a user turned back on (Undo): this rule leaves them alone. */
  exempt?: ReadonlySet<string>;
}

/** Comparisons tolerate float noise: 150.30 / 3 must not count as above 50.10. */
const EPSILON = 1e-9;
const above = (value: number, threshold: number) => value - threshold > EPSILON * Math.max(1, Math.abs(threshold));
const below = (value: number, threshold: number) => threshold - value > EPSILON * Math.max(1, Math.abs(threshold));
const atLeast = (value: number, threshold: number) => !below(value, threshold);

function containsAny(name: string, items: string[]): boolean {
  const lower = name.toLowerCase();
  return items.some((item) => item.trim() !== '' && lower.includes(item.trim().toLowerCase()));
}

function listValues(item: RuleItem | undefined): string[] {
  return Array.isArray(item?.values) ? item.values.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * Name filters (src/domain/rules.ts), matched case-insensitively: the contains filter always
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

interface AdCandidate {
  adId: string;
  campaignId: string;
  metrics: ObjectMetrics;
}

type AdCheck = (m: ObjectMetrics, t: Record<string, number>, currency: string) => Record<string, string> | null;

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

function activeThresholds(rule: EngineRule, problems: string[]): Map<TaskName, Record<string, number>> {
  const result = new Map<TaskName, Record<string, number>>();
  for (const task of rule.rule_task) {
    if (!task.is_active) continue;
    const thresholds = taskThresholds(task);
    if (thresholds) result.set(task.name as TaskName, thresholds);
    else problems.push(`${task.name}: the threshold is not a number`);
  }
  return result;
}

export function evaluate(rule: EngineRule, snapshot: AccountSnapshot, options: EvaluateOptions = {}): Evaluation {
  const problems: string[] = [];
  const thresholds = activeThresholds(rule, problems);
  const exempt = options.exempt ?? new Set<string>();
  const currency = snapshot.currency;

  const campaignsById = new Map(snapshot.campaigns.map((c) => [c.id, c]));
  const adsById = new Map(snapshot.ads.map((a) => [a.id, a]));
  const campaignName = (id: string, row?: InsightRow) => campaignsById.get(id)?.name ?? row?.campaign_name ?? '';

  const candidates: AdCandidate[] = [];
  for (const row of snapshot.insights) {
    if (!row.ad_id || !campaignNameMatches(rule, campaignName(row.campaign_id, row))) continue;
    const metrics = rowMetrics(row);
    if (metrics) candidates.push({ adId: row.ad_id, campaignId: row.campaign_id, metrics });
  }

  const actions: PlannedAction[] = [];
  const campaignsTurnedOff = new Set<string>();

  const seatLimit = thresholds.get('campaign_leads');
  if (seatLimit) {
    const byCampaign = new Map<string, AdCandidate[]>();
    for (const c of candidates) byCampaign.set(c.campaignId, [...(byCampaign.get(c.campaignId) ?? []), c]);
    for (const [campaignId, ads] of byCampaign) {
      const campaign = campaignsById.get(campaignId);
      if (!campaign || !isOn(campaign) || exempt.has(campaignId)) continue;
      const totals = sumMetrics(ads.map((a) => a.metrics));
      if (!atLeast(totals.leads, seatLimit.leads!)) continue;
      campaignsTurnedOff.add(campaignId);
      actions.push({
        action: 'turn_off_campaign',
        objectId: campaignId,
        campaignId,
        task: 'campaign_leads',
        reason: { Leads: `${count(totals.leads)} ≥ ${count(seatLimit.leads!)}`, Campaign: campaign.name },
      });
    }
  }

  for (const candidate of candidates) {
    const ad = adsById.get(candidate.adId);
    // Unknown status (deleted, or missing from the list) counts as off: never act blind.
    if (!ad || !isOn(ad) || exempt.has(candidate.adId) || campaignsTurnedOff.has(candidate.campaignId)) continue;
    for (const [task, check] of AD_TASKS) {
      const t = thresholds.get(task);
      const reason = t && check(candidate.metrics, t, currency);
      if (!reason) continue;
      actions.push({
        action: 'turn_off_ad',
        objectId: candidate.adId,
        campaignId: candidate.campaignId,
        task,
        reason: { ...reason, Campaign: campaignName(candidate.campaignId), Ad: ad.name },
      });
      break;
    }
  }
  return { actions, problems };
}
