/**
 * The ad-platform boundary: what the product needs from Meta's Graph API. The Graph client
 * (real platform or the local simulator — the client cannot tell them apart) implements it;
 * sync and the rule engine depend only on this interface.
 * Metric values are strings, as the Graph API sends them.
 */
import type { BudgetObject } from '../judgement/budgets/types';
import type { VersionNotice } from './versionNotice';

export interface AdAccount {
  /** 'act_<account_id>' */
  id: string;
  account_id: string;
  name: string;
  timezone_name: string;
  currency: string;
  account_status?: number;
}

export type ObjectStatus = 'ACTIVE' | 'PAUSED';

/** One entry of Graph's `issues_info`: why Meta stopped an object (its own pause, a policy review …). */
export interface ObjectIssue {
  error_code?: number;
  error_summary?: string;
  error_message?: string;
  error_type?: string;
  level?: string;
}

export interface Campaign {
  id: string;
  name: string;
  status: string;
  effective_status: string;
  start_time?: string;
  stop_time?: string;
  daily_budget?: string;
  /** Digits, without 'act_'. */
  account_id?: string;
  /** Absent unless Meta reports an issue (server/run/metaPauses.ts). */
  issues_info?: ObjectIssue[];
}

export interface Ad {
  id: string;
  name: string;
  status: string;
  effective_status: string;
  campaign_id: string;
  adset_id: string;
  /** Absent unless Meta reports an issue (server/run/metaPauses.ts). */
  issues_info?: ObjectIssue[];
}

export interface CampaignsWithAds {
  campaigns: Campaign[];
  ads: Ad[];
}

/** Graph's attribution windows (action_attribution_windows); 7d_view and 28d_view are no longer reported. */
export type AttributionWindowKey = '1d_click' | '7d_click' | '1d_view' | '7d_view' | '28d_view';

/** An action's count (or cost); asked with attribution windows, also its count within each (absent: none). */
export interface ActionValue extends Partial<Record<AttributionWindowKey, string>> {
  action_type: string;
  value: string;
}

export interface InsightRow {
  account_id?: string;
  campaign_id: string;
  campaign_name: string;
  adset_id?: string;
  ad_id?: string;
  ad_name?: string;
  /** The ad set's goal at ad and ad set level: LEAD_GENERATION for instant-form lead ads, OFFSITE_CONVERSIONS for website leads … */
  optimization_goal?: string;
  spend: string;
  impressions?: string;
  /** People reached (unique: never summed across ads); absent unless asked for. */
  reach?: string;
  /** Impressions per person reached; absent unless asked for. */
  frequency?: string;
  /** Cost per 1,000 impressions; absent unless asked for. */
  cpm?: string;
  clicks?: string;
  inline_link_clicks?: string;
  ctr?: string;
  cpc?: string;
  actions?: ActionValue[];
  cost_per_action_type?: ActionValue[];
  date_start?: string;
  date_stop?: string;
  /** With the hourly breakdown: the advertiser-time-zone hour, "13:00:00 - 13:59:59". */
  hourly_stats_aggregated_by_advertiser_time_zone?: string;
}

export interface TokenStatus {
  /** When the token stops working; null when it never expires or the platform did not say. */
  expiresAt: Date | null;
}

export interface InsightsQuery {
  level: 'ad' | 'campaign' | 'account';
  /** Lifetime ('maximum') unless a time range is given. */
  timeRange?: { since: string; until: string };
  campaignIds?: string[];
  /** 1: one row per day of the range (Graph's time_increment). */
  timeIncrement?: 1;
  /** 'hourly': one row per hour of the advertiser's time zone (hourly_stats_aggregated_by_advertiser_time_zone). */
  breakdown?: 'hourly';
  /** The fields to read when not all of INSIGHT_FIELDS are needed (an hourly read has thousands of rows). */
  fields?: readonly (keyof InsightRow)[];
  /** Each action also counted within these windows (Graph's action_attribution_windows). */
  attributionWindows?: readonly AttributionWindowKey[];
}

/** A lead from lead retrieval as the product keeps it: the person only as their e-mail's hash. */
export interface LeadRecord {
  id: string;
  /** ISO 8601, as Graph writes it (`2026-03-02T15:04:05+0000`). */
  created_time: string;
  ad_id: string;
  /** The lead form; absent when Graph does not say. */
  form_id?: string;
  /** SHA-256 of the normalised e-mail (server/webinar/emailHash.ts); null when the form asked for none. */
  email_sha256: string | null;
}

export interface LeadsQuery {
  /** Only leads created at or after this moment. */
  since?: Date;
  /** The ad's account (digits or act_…): the call is paced by that account's usage. */
  accountId?: string;
}

/**
 * The ad account the objects of a call belong to (act_… or digits), for a call that names only
 * objects: its token is the one of the Meta connection serving that account (server/connections/).
 */
export interface AccountScope {
  accountId?: string;
}

export interface StatusChangeResult {
  id: string;
  ok: boolean;
  error?: string;
}

/** A new daily budget for an ad set or campaign, in cents (minor currency units). */
export interface BudgetChange {
  id: string;
  dailyBudget: number;
}

export interface AdPlatformClient {
  listAdAccounts(): Promise<AdAccount[]>;
  listCampaigns(accountId: string): Promise<Campaign[]>;
  listAds(accountId: string): Promise<Ad[]>;
  /** Every campaign of the account and every ad of them, in as few reads as the platform allows. */
  listCampaignsWithAds(accountId: string): Promise<CampaignsWithAds>;
  getInsights(accountId: string, query: InsightsQuery): Promise<InsightRow[]>;
  /** Status changes in as few calls as possible (Graph batch requests, ≤ 50 per call), paced as setBudgets. */
  setStatuses(changes: { id: string; status: ObjectStatus }[], scope?: AccountScope): Promise<StatusChangeResult[]>;
  /**
   * The account's ad sets and campaigns with their budgets (cents), status and (ad sets) learning
   * stage. Optional for test doubles; the Graph client and the routed client have it.
   */
  listBudgets?(accountId: string): Promise<BudgetObject[]>;
  /**
   * Daily budget writes in as few calls as possible (Graph batch requests, ≤ 50 per call), never
   * more than 100 writes a second per ad account; each result ok or the platform's refusal, its
   * code and subcode kept (`(#613) … [1487632]` when Meta blocks a 5th change within an hour).
   */
  setBudgets?(changes: BudgetChange[], scope?: AccountScope): Promise<StatusChangeResult[]>;
  /** An ad's on-Facebook form leads (website leads have none), oldest first. */
  listLeads?(adId: string, query?: LeadsQuery): Promise<LeadRecord[]>;
  /** Whether the token still works, and when it expires; throws the platform's auth error when it does not. */
  checkToken?(): Promise<TokenStatus>;
  /** The Graph API version called and what the platform's latest answer said of it (versionNotice.ts). */
  apiVersion?(): { configured: string; notice?: VersionNotice };
}
