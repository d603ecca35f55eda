/**
 * The simulated nodes as Graph writes them: for each node type, the fields the simulator answers
 * (a subset of Meta's spec, specs/<Node>.json) and how each is read off the world at a moment.
 * A field outside the spec is refused as Graph refuses it; a spec field not simulated here is
 * refused with its own message, so a client never silently gets nothing.
 */
import { DateTime } from 'luxon';
import { specFields, type SpecNode } from '../graphSpec';
import { errorAnswer, type GraphAnswer } from './answers';
import { statusAt } from './delivery';
import { accountSpendCents, budgetRemaining, MIN_DAILY_BUDGET_CENTS } from './budgets';
import { businessIdOf, businessOf, creativeIdOf, fundingSourceOf, promotedObjectOf, trackingSpecsOf } from './assets';
import type { SimAccount, SimAd, SimAdSet, SimCampaign, World } from './world';
import { DAY } from './naming';
import { issuesInfo } from './metaPause';
import { learningStageInfo } from './learning';

export type NodeType = 'AdAccount' | 'Campaign' | 'AdSet' | 'Ad';

export interface NodeContext {
  world: World;
  now: number;
}

export interface NodeOf {
  AdAccount: SimAccount;
  Campaign: SimCampaign;
  AdSet: SimAdSet;
  Ad: SimAd;
}

type FieldTable<T> = Readonly<Record<string, (node: T, context: NodeContext) => unknown>>;

/** `2026-03-02T15:00:00+0000` in the ad account's time zone, as Graph writes datetimes. */
export function graphDatetime(ms: number, timezone: string): string {
  return DateTime.fromMillis(ms, { zone: timezone }).toFormat("yyyy-MM-dd'T'HH:mm:ssZZZ");
}

const zoneOf = (context: NodeContext, accountId: string) => context.world.account(accountId)!.timezone;

/** When the object last changed (ms): its newest status event or edit up to now, or its creation. */
export function updatedAt(node: SimCampaign | SimAdSet | SimAd, now: number): number {
  const last = node.statusLog.filter((event) => event.at <= now).at(-1)?.at ?? node.createdTime;
  const edited = node.editedAt !== undefined && node.editedAt <= now ? node.editedAt : node.createdTime;
  return Math.max(last, edited, node.createdTime);
}

const updatedTime = (node: SimCampaign | SimAdSet | SimAd, context: NodeContext) =>
  graphDatetime(updatedAt(node, context.now), zoneOf(context, node.accountId));

const centsString = (cents: number | undefined) => (cents === undefined ? undefined : String(cents));

const statusOf = (node: SimCampaign | SimAdSet | SimAd, context: NodeContext) =>
  'deleted' in node && node.deleted ? 'DELETED' : statusAt(node.statusLog, context.now);

/** Only a pause by Meta (metaPause.ts) is an issue here; Graph leaves `issues_info` out for an object without any. */
const noIssues = (node: SimCampaign | SimAdSet | SimAd, context: NodeContext) => issuesInfo(node, context.now);

/**
 * Graph's effective_status: the object's own DELETED or ARCHIVED first, then a paused (or archived) campaign
 * (CAMPAIGN_PAUSED), then a paused ad set (ADSET_PAUSED), else the object's own status.
 */
export function effectiveStatus(world: World, node: SimCampaign | SimAdSet | SimAd, now: number): string {
  if ('deleted' in node && node.deleted) return 'DELETED';
  const own = statusAt(node.statusLog, now);
  if (own === 'ARCHIVED' || !('campaignId' in node)) return own;
  if (statusAt(world.campaigns.get(node.campaignId)!.statusLog, now) !== 'ACTIVE') return 'CAMPAIGN_PAUSED';
  if ('adsetId' in node && statusAt(world.adsets.get(node.adsetId)!.statusLog, now) !== 'ACTIVE') return 'ADSET_PAUSED';
  return own;
}

const ACCOUNT: FieldTable<SimAccount> = {
  id: (a) => `act_${a.accountId}`,
  account_id: (a) => a.accountId,
  name: (a) => a.name,
  account_status: () => 1,
  age: (a, c) => Number(((c.now - a.createdTime) / DAY).toFixed(6)),
  amount_spent: (a, c) => String(accountSpendCents(c, a.accountId)),
  balance: () => '0',
  business: (a) => businessOf(a),
  business_name: (a) => a.name,
  created_time: (a) => graphDatetime(a.createdTime, a.timezone),
  currency: (a) => a.currency,
  disable_reason: () => 0,
  funding_source: (a) => fundingSourceOf(a).id,
  funding_source_details: (a) => fundingSourceOf(a),
  is_personal: () => 0,
  is_prepay_account: () => false,
  min_daily_budget: () => MIN_DAILY_BUDGET_CENTS,
  owner: (a) => businessIdOf(a),
  spend_cap: () => '0',
  timezone_name: (a) => a.timezone,
  timezone_offset_hours_utc: (a, c) => DateTime.fromMillis(c.now, { zone: a.timezone }).offset / 60,
  user_tasks: () => ['MANAGE', 'ADVERTISE', 'ANALYZE', 'DRAFT'],
};

const CAMPAIGN: FieldTable<SimCampaign> = {
  id: (c) => c.id,
  account_id: (c) => c.accountId,
  name: (c) => c.name,
  status: statusOf,
  configured_status: statusOf,
  effective_status: (c, context) => effectiveStatus(context.world, c, context.now),
  objective: () => 'OUTCOME_LEADS',
  buying_type: () => 'AUCTION',
  bid_strategy: () => 'LOWEST_COST_WITHOUT_CAP',
  daily_budget: (c) => centsString(c.dailyBudgetCents),
  lifetime_budget: (c) => centsString(c.lifetimeBudgetCents),
  budget_remaining: budgetRemaining,
  budget_rebalance_flag: () => false,
  issues_info: noIssues,
  pacing_type: () => ['standard'],
  special_ad_categories: () => [],
  special_ad_category: () => 'NONE',
  source_campaign_id: () => '0',
  can_use_spend_cap: () => true,
  start_time: (c, context) => graphDatetime(c.startTime, zoneOf(context, c.accountId)),
  stop_time: (c, context) =>
    c.stopTime === undefined ? undefined : graphDatetime(c.stopTime, zoneOf(context, c.accountId)),
  created_time: (c, context) => graphDatetime(c.createdTime, zoneOf(context, c.accountId)),
  updated_time: updatedTime,
};

const ADSET: FieldTable<SimAdSet> = {
  id: (s) => s.id,
  account_id: (s) => s.accountId,
  campaign_id: (s) => s.campaignId,
  name: (s) => s.name,
  status: statusOf,
  configured_status: statusOf,
  effective_status: (s, context) => effectiveStatus(context.world, s, context.now),
  billing_event: () => 'IMPRESSIONS',
  bid_strategy: () => 'LOWEST_COST_WITHOUT_CAP',
  optimization_goal: (s, context) => context.world.optimizationGoalOf(s.id),
  destination_type: (s, context) =>
    context.world.optimizationGoalOf(s.id) === 'OFFSITE_CONVERSIONS' ? 'WEBSITE' : 'ON_AD',
  /** Only when the campaign has no budget of its own (else the ad set has none and 0 remaining). */
  daily_budget: (s) => centsString(s.dailyBudgetCents),
  lifetime_budget: (s) => centsString(s.lifetimeBudgetCents),
  budget_remaining: budgetRemaining,
  /** LEARNING from creation and after each significant budget change, until 50 leads (SUCCESS) or 7 days (FAIL). */
  learning_stage_info: (s, context) => learningStageInfo(context.world, s, context.now),
  targeting: (s) => structuredClone(s.targeting),
  promoted_object: (s, context) => promotedObjectOf(context.world, s.id),
  issues_info: noIssues,
  pacing_type: () => ['standard'],
  is_dynamic_creative: () => false,
  start_time: (s, context) =>
    graphDatetime(context.world.campaigns.get(s.campaignId)!.startTime, zoneOf(context, s.accountId)),
  end_time: (s, context) => {
    const stop = context.world.campaigns.get(s.campaignId)!.stopTime;
    return stop === undefined ? undefined : graphDatetime(stop, zoneOf(context, s.accountId));
  },
  created_time: (s, context) => graphDatetime(s.createdTime, zoneOf(context, s.accountId)),
  updated_time: updatedTime,
};

const AD: FieldTable<SimAd> = {
  id: (ad) => ad.id,
  account_id: (ad) => ad.accountId,
  campaign_id: (ad) => ad.campaignId,
  adset_id: (ad) => ad.adsetId,
  name: (ad) => ad.name,
  status: statusOf,
  configured_status: statusOf,
  effective_status: (ad, context) => effectiveStatus(context.world, ad, context.now),
  bid_type: () => 'ABSOLUTE_OCPM',
  creative: (ad) => ({ id: creativeIdOf(ad) }),
  tracking_specs: (ad) => trackingSpecsOf(ad),
  /** An ad is aimed at its ad set's audience. */
  targeting: (ad, context) => structuredClone(context.world.adsets.get(ad.adsetId)!.targeting),
  issues_info: noIssues,
  source_ad_id: () => '0',
  created_time: (ad, context) => graphDatetime(ad.createdTime, zoneOf(context, ad.accountId)),
  updated_time: updatedTime,
};

const TABLES = { AdAccount: ACCOUNT, Campaign: CAMPAIGN, AdSet: ADSET, Ad: AD } as const;

/** The fields the simulator answers, per node type. */
export const SIMULATED_FIELDS: Readonly<Record<NodeType, readonly string[]>> = {
  AdAccount: Object.keys(ACCOUNT),
  Campaign: Object.keys(CAMPAIGN),
  AdSet: Object.keys(ADSET),
  Ad: Object.keys(AD),
};

/**
 * The refusal for fields the simulator cannot answer on a node type, or undefined when it answers
 * them all. Outside the spec: Graph's own (#100) "nonexisting field" error.
 */
export function refuseFields(node: SpecNode, fields: readonly string[], simulated: readonly string[]) {
  const spec = specFields(node);
  for (const field of fields) {
    if (simulated.includes(field)) continue;
    if (!spec.has(field)) {
      return node === 'AdsInsights'
        ? errorAnswer(
            400,
            100,
            `(#100) ${field} is not valid for fields param. please check https://developers.facebook.com/docs/marketing-api/reference/ads-insights/ for all valid values`,
          )
        : errorAnswer(400, 100, `(#100) Tried accessing nonexisting field (${field}) on node type (${node})`);
    }
    return errorAnswer(
      400,
      100,
      `(#100) The simulator does not answer field (${field}) on node type (${node}): it is in Graph's spec but not simulated. Simulated fields: ${simulated.join(', ')}`,
    );
  }
  return undefined;
}

/** A renderer for some fields of one node type, or the refusal when a field cannot be answered. */
export function nodeRenderer<T extends NodeType>(
  type: T,
  fields: readonly string[],
  context: NodeContext,
): ((node: NodeOf[T]) => Record<string, unknown>) | GraphAnswer {
  const refusal = refuseFields(type, fields, SIMULATED_FIELDS[type]);
  if (refusal) return refusal;
  const table = TABLES[type] as FieldTable<unknown>;
  const wanted = fields.includes('id') ? fields : ['id', ...fields];
  return (node) => {
    const out: Record<string, unknown> = {};
    for (const field of wanted) {
      const value = table[field]!(node, context);
      if (value !== undefined) out[field] = value;
    }
    return out;
  };
}
