/**
 * The fields the client asks Graph for, node by node, and the kind it expects each to have on the
 * wire. The compiler holds the kinds to types.ts and the spec test holds them to Meta's published
 * spec of the node, so neither can drift silently.
 */
import type { BudgetNode } from './budgetRows';
import type { ActionValue, Ad, AdAccount, Campaign, InsightRow, ObjectIssue } from './types';

export type WireKind =
  | 'id'
  | 'string'
  | 'numeric string'
  | 'enum'
  | 'datetime'
  | 'integer'
  | 'action list'
  | 'issues list'
  | 'learning stage';
type KindOf<T> = T extends ActionValue[]
  ? 'action list'
  : T extends ObjectIssue[]
    ? 'issues list'
    : T extends number
      ? 'integer'
      : T extends string
        ? Exclude<WireKind, 'integer' | 'action list' | 'issues list' | 'learning stage'>
        : T extends { status?: string }
          ? 'learning stage'
          : never;
export type FieldKinds<T> = { readonly [K in keyof T]?: KindOf<NonNullable<T[K]>> };

/** Fields read from AdAccount nodes. */
export const ACCOUNT_FIELDS = {
  id: 'id',
  account_id: 'id',
  name: 'string',
  timezone_name: 'string',
  currency: 'string',
  account_status: 'integer',
} as const satisfies FieldKinds<AdAccount>;

/** What Campaign and Ad nodes are both read for: which object, whether it is on, and whether Meta stopped it. */
const ON_OFF_FIELDS = {
  id: 'id',
  name: 'string',
  status: 'enum',
  effective_status: 'enum',
  issues_info: 'issues list',
} as const;

/** Fields read from Campaign nodes. */
export const CAMPAIGN_FIELDS = {
  ...ON_OFF_FIELDS,
  start_time: 'datetime',
  stop_time: 'datetime',
  daily_budget: 'numeric string',
  account_id: 'id',
} as const satisfies FieldKinds<Campaign>;

/** Fields read from Ad nodes. */
export const AD_FIELDS = {
  ...ON_OFF_FIELDS,
  campaign_id: 'id',
  adset_id: 'id',
} as const satisfies FieldKinds<Ad>;

/** What an ad set's or campaign's budget is read with (budgetRows.ts). */
const BUDGET_FIELDS = {
  id: 'id',
  name: 'string',
  status: 'enum',
  effective_status: 'enum',
  daily_budget: 'numeric string',
  lifetime_budget: 'numeric string',
  budget_remaining: 'numeric string',
} as const;

/** Fields read from AdSet nodes for their budgets and learning. */
export const ADSET_BUDGET_FIELDS = {
  ...BUDGET_FIELDS,
  campaign_id: 'id',
  learning_stage_info: 'learning stage',
} as const satisfies FieldKinds<BudgetNode>;

/** Fields read from Campaign nodes for their (campaign) budgets. */
export const CAMPAIGN_BUDGET_FIELDS = BUDGET_FIELDS satisfies FieldKinds<BudgetNode>;

/** Fields read back from an AdSet or Campaign after a budget write whose outcome is unknown. */
export const DAILY_BUDGET_FIELDS = { id: 'id', daily_budget: 'numeric string' } as const satisfies FieldKinds<{
  id: string;
  daily_budget: string;
}>;

/** Fields read back from a Campaign, AdSet or Ad after a write whose outcome is unknown. */
export const STATUS_FIELDS = { id: 'id', status: 'enum' } as const satisfies FieldKinds<{ id: string; status: string }>;

/** Fields read from AdsInsights rows (Graph adds date_start and date_stop itself). */
export const INSIGHT_FIELDS = {
  account_id: 'id',
  campaign_id: 'id',
  campaign_name: 'string',
  adset_id: 'id',
  ad_id: 'id',
  ad_name: 'string',
  optimization_goal: 'string',
  spend: 'numeric string',
  impressions: 'numeric string',
  clicks: 'numeric string',
  inline_link_clicks: 'numeric string',
  ctr: 'numeric string',
  cpc: 'numeric string',
  actions: 'action list',
  cost_per_action_type: 'action list',
} as const satisfies FieldKinds<InsightRow>;

/** The hourly breakdown in the advertiser's time zone (rows name their hour in this field). */
export const HOURLY_BREAKDOWN = 'hourly_stats_aggregated_by_advertiser_time_zone';

/** `{id: …, name: …}` → 'id,name', the `fields` parameter. */
export const fieldsParam = (fields: Readonly<Record<string, WireKind>>): string => Object.keys(fields).join(',');
