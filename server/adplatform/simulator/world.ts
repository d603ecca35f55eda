/**
 * The simulator's world: ad accounts, campaigns, ad sets and ads, built from a seed and a start
 * time. Campaign names follow the agency's naming (docs/contract.md#constants): `EDM - EP-W - 03/14/2026 6:30 PM -
 * Harbor Wealth`. Every ad has a delivery profile; its metrics are a pure function of how long it
 * has been delivering (see delivery.ts), so pausing an ad freezes them and the same seed and clock
 * give the same numbers on every machine.
 */
import { DateTime } from 'luxon';
import { CAMPAIGN_NAME_OPTIONS } from '../../../shared/constants';
import type { LagName } from './lag';
import { seededRandom, type Random } from './random';
import { WriteLimits } from './writeLimits';
import { campaignDate, campaignTime, DAY, HOUR } from './naming';

/** A configured status the simulator keeps (Graph's DELETED is modelled for ads only, as `deleted`). */
export type SimStatus = 'ACTIVE' | 'PAUSED' | 'ARCHIVED';

export interface StatusEvent {
  at: number;
  status: SimStatus;
  /** Set when Meta itself paused the object (metaPause.ts): the issue Graph reports in `issues_info`. */
  byMeta?: MetaIssue;
}

/** One entry of Graph's `issues_info` (AdCampaignIssuesInfo / AdgroupIssuesInfo). */
export interface MetaIssue {
  error_code: number;
  error_summary: string;
  error_message: string;
  error_type: string;
}

/** How an ad delivers: spend per delivering hour and what that spend buys. */
export interface DeliveryProfile {
  spendPerHour: number;
  /** Cost per 1,000 impressions. */
  cpm: number;
  /** All clicks over impressions, percent. */
  ctrPct: number;
  /** Share of clicks that are link clicks. */
  linkShare: number;
  leads: { kind: 'per_spend'; cpl: number } | { kind: 'diminishing'; factor: number } | { kind: 'none' };
  /** Share of leads that are website (pixel) leads; the rest are on-Facebook form leads. */
  websiteShare: number;
  /** How late each kind of lead arrives (lag.ts; default: website and instant_form). */
  lag?: { website: LagName; onsite: LagName };
}

export interface SimAccount {
  /** Digits; the Graph id is 'act_' + this. */
  accountId: string;
  name: string;
  timezone: string;
  currency: string;
  createdTime: number;
  /** From this moment its leads are no longer recorded (a broken pixel and lead form hook), while delivery goes on. */
  trackingBrokenAt?: number;
}

/** A daily or lifetime budget (cents) in force from a moment (budgetLog.ts keeps the log). */
export interface BudgetEvent {
  at: number;
  dailyCents?: number;
  lifetimeCents?: number;
}

export interface SimCampaign {
  id: string;
  accountId: string;
  name: string;
  /** When it was created: its status log starts here, before it starts delivering. */
  createdTime: number;
  startTime: number;
  stopTime: number | undefined;
  /** A campaign budget (Advantage campaign budget) is daily or lifetime; without one, its ad sets hold budgets. */
  dailyBudgetCents?: number;
  lifetimeBudgetCents?: number;
  /** Its budget from creation and after each budget write (budgetLog.ts); absent until the first write. */
  budgetLog?: BudgetEvent[];
  statusLog: StatusEvent[];
  /** The last write of a name or budget (status writes are in the status log). */
  editedAt?: number;
}

/** The part of Graph's targeting spec the simulator keeps (read-only). */
export interface SimTargeting {
  age_min: number;
  age_max: number;
  geo_locations: { countries: string[]; location_types: string[] };
  targeting_automation: { advantage_audience: number };
}

export interface SimAdSet {
  id: string;
  campaignId: string;
  accountId: string;
  name: string;
  createdTime: number;
  statusLog: StatusEvent[];
  /** Set only when its campaign has no budget of its own. */
  dailyBudgetCents?: number;
  lifetimeBudgetCents?: number;
  /** Its budget from creation and after each budget write (budgetLog.ts); absent until the first write. */
  budgetLog?: BudgetEvent[];
  targeting: SimTargeting;
  editedAt?: number;
}

export interface SimAd {
  id: string;
  adsetId: string;
  campaignId: string;
  accountId: string;
  name: string;
  createdTime: number;
  statusLog: StatusEvent[];
  profile: DeliveryProfile;
  deleted: boolean;
  editedAt?: number;
}

export interface WorldOptions {
  seed?: number;
  /** Simulated time the world is built at (campaigns started before it have history). */
  start: number;
  accounts?: number;
  campaignsPerAccount?: number;
  adsPerCampaign?: number;
}

export interface ScenarioObjects {
  accountId: string;
  campaignId: string;
  adIds: string[];
  /** broken_tracking: when the account's leads stopped being recorded (ISO 8601). */
  trackingBrokenAt?: string;
}

const ACCOUNTS = [
  { name: 'Harbor Wealth Advisors', short: 'Harbor Wealth', timezone: 'America/New_York' },
  { name: 'Summit Retirement Group', short: 'Summit Retirement', timezone: 'America/Chicago' },
  { name: 'Canyon Financial Partners', short: 'Canyon Financial', timezone: 'America/Denver' },
  { name: 'Pacific Coast Planning', short: 'Pacific Coast', timezone: 'America/Los_Angeles' },
  { name: 'Desert Sun Estate Law', short: 'Desert Sun', timezone: 'America/Phoenix' },
  { name: 'Aloha Legacy Planning', short: 'Aloha Legacy', timezone: 'Pacific/Honolulu' },
] as const;

/**
 * The i-th account: the fixed list first, then the same firms again with a number (`Harbor Wealth
 * Advisors 2`), so a world of any size is built the same way from the same seed.
 */
function accountTemplate(i: number): { name: string; short: string; timezone: string } {
  const template = ACCOUNTS[i % ACCOUNTS.length]!;
  const round = Math.floor(i / ACCOUNTS.length);
  if (round === 0) return template;
  return {
    name: `${template.name} ${round + 1}`,
    short: `${template.short} ${round + 1}`,
    timezone: template.timezone,
  };
}

const EVENT_TIMES = ['10:00', '11:30', '13:00', '17:30', '18:00', '18:30', '19:00'] as const;
const AD_CREATIVES = [
  'Video - Couple at Table',
  'Image - Checklist',
  'Carousel - Venue',
  'Image - Advisor Portrait',
  'Video - Testimonial',
];

/** The world each ad set belongs to, so what is computed of one ad (delivery.ts adTotals) can see its siblings. */
const OWNERS = new WeakMap<SimAdSet, World>();

export function worldOf(adset: SimAdSet): World | undefined {
  return OWNERS.get(adset);
}

export class World {
  readonly accounts: SimAccount[] = [];
  readonly campaigns = new Map<string, SimCampaign>();
  readonly adsets = new Map<string, SimAdSet>();
  readonly ads = new Map<string, SimAd>();
  /** Named scenarios added to the world (scenarios.ts), by name. */
  readonly scenarios = new Map<string, ScenarioObjects>();
  /** Counts the writes through the Graph API: an answer computed before one is stale. */
  revision = 0;
  /** Breakdowns each ad account (digits) opted into (breakdownOptIn.ts). */
  readonly optIns = new Map<string, Set<string>>();
  /** Meta's limits on writes: budget changes per object and hour, mutations per account and second (writeLimits.ts). */
  readonly limits = new WriteLimits();
  private nextId: number;
  private readonly idPrefix: string;

  constructor(readonly options: WorldOptions) {
    const random = seededRandom(options.seed ?? 1);
    this.idPrefix = `120${String(random.int(100_000, 999_999))}`;
    this.nextId = random.int(100_000_000, 400_000_000);
    const accountCount = options.accounts ?? 5;
    for (let i = 0; i < accountCount; i += 1) {
      const template = accountTemplate(i);
      this.accounts.push({
        accountId: String(random.int(100_000_000, 999_999_999) * 1_000_000 + random.int(0, 999_999)),
        name: template.name,
        timezone: template.timezone,
        currency: 'USD',
        createdTime: options.start - (400 + 90 * (i % ACCOUNTS.length)) * DAY,
      });
    }
    for (const [index, account] of this.accounts.entries()) {
      for (let c = 0; c < (options.campaignsPerAccount ?? 10); c += 1) {
        this.addRegularCampaign(random, account, accountTemplate(index).short, options.adsPerCampaign ?? 3, c);
      }
    }
  }

  account(id: string): SimAccount | undefined {
    const digits = id.replace(/^act_/, '');
    return this.accounts.find((a) => a.accountId === digits);
  }

  newId(): string {
    this.nextId += 1;
    return `${this.idPrefix}${String(this.nextId).padStart(9, '0')}`;
  }

  /** A campaign created a day before it starts (or before the world's start, whichever is earlier). */
  addCampaign(fields: Omit<SimCampaign, 'id' | 'statusLog' | 'createdTime'> & { status?: SimStatus }): SimCampaign {
    const createdTime = Math.min(fields.startTime, this.options.start) - DAY;
    const campaign: SimCampaign = {
      ...fields,
      id: this.newId(),
      createdTime,
      statusLog: [{ at: createdTime, status: fields.status ?? 'ACTIVE' }],
    };
    delete (campaign as { status?: SimStatus }).status;
    this.campaigns.set(campaign.id, campaign);
    return campaign;
  }

  /** An ad set aimed at people 55–65 in the US; a budget only when its campaign has none. */
  addAdSet(
    campaign: SimCampaign,
    name: string,
    budget: Pick<SimAdSet, 'dailyBudgetCents' | 'lifetimeBudgetCents'> = {},
  ): SimAdSet {
    const adset: SimAdSet = {
      id: this.newId(),
      campaignId: campaign.id,
      accountId: campaign.accountId,
      name,
      createdTime: campaign.createdTime,
      statusLog: [{ at: campaign.createdTime, status: 'ACTIVE' }],
      ...budget,
      targeting: {
        age_min: 55,
        age_max: 65,
        geo_locations: { countries: ['US'], location_types: ['home', 'recent'] },
        targeting_automation: { advantage_audience: 0 },
      },
    };
    this.adsets.set(adset.id, adset);
    OWNERS.set(adset, this);
    return adset;
  }

  addAd(adset: SimAdSet, name: string, profile: DeliveryProfile, status: SimStatus = 'ACTIVE'): SimAd {
    const campaign = this.campaigns.get(adset.campaignId)!;
    const ad: SimAd = {
      id: this.newId(),
      adsetId: adset.id,
      campaignId: adset.campaignId,
      accountId: adset.accountId,
      name,
      createdTime: campaign.createdTime,
      statusLog: [{ at: campaign.createdTime, status }],
      profile,
      deleted: false,
    };
    this.ads.set(ad.id, ad);
    return ad;
  }

  /**
   * An ad set's optimisation goal, as Graph names it: website (pixel) leads when most of its ads'
   * leads come from the website, instant-form leads otherwise (a real ad set has one destination).
   */
  optimizationGoalOf(adsetId: string): 'OFFSITE_CONVERSIONS' | 'LEAD_GENERATION' {
    const ads = [...this.ads.values()].filter((ad) => ad.adsetId === adsetId && !ad.deleted);
    const websiteShare = ads.reduce((sum, ad) => sum + ad.profile.websiteShare, 0) / Math.max(1, ads.length);
    return websiteShare >= 0.5 ? 'OFFSITE_CONVERSIONS' : 'LEAD_GENERATION';
  }

  adsOf(campaignId: string): SimAd[] {
    return [...this.ads.values()].filter((ad) => ad.campaignId === campaignId && !ad.deleted);
  }

  /**
   * About a third of an account's campaigns budget per ad set (some with an end among them), the
   * rest with a campaign budget; a
   * budget is a lifetime one for ad sets and every other campaign when the campaign has an end.
   * Decided by position, so the seeded draws stay the same.
   */
  private addRegularCampaign(
    random: Random,
    account: SimAccount,
    short: string,
    adsPerCampaign: number,
    position: number,
  ): void {
    const start = this.options.start;
    const local = DateTime.fromMillis(start, { zone: account.timezone });
    const kind = random.next();
    let name: string;
    let startTime: number;
    let stopTime: number | undefined;

    if (kind < 0.8) {
      const option = random.pick(CAMPAIGN_NAME_OPTIONS.filter((o) => o !== 'EDM'));
      const [hour, minute] = random.pick(EVENT_TIMES).split(':').map(Number) as [number, number];
      const event = local
        .startOf('day')
        .plus({ days: random.int(-20, 30) })
        .set({ hour, minute });
      name = `EDM - ${option} - ${campaignDate(event, random)} ${campaignTime(event)} - ${short}`;
      startTime = event.minus({ days: random.int(8, 21) }).toMillis();
      stopTime = event.toMillis();
    } else if (kind < 0.9) {
      name = `EDM - ${random.pick(['TIR', 'RP', 'SS', 'EP'])} Evergreen Guide - ${short}`;
      startTime = local.minus({ days: random.int(20, 60) }).toMillis();
    } else {
      name = random.pick([
        `DLM Retargeting - Site Visitors - ${short}`,
        `Brand Awareness - ${short}`,
        `Client Newsletter Boost - ${short}`,
      ]);
      startTime = local.minus({ days: random.int(5, 40) }).toMillis();
    }

    const daily = random.int(20, 150) * 100;
    const firstStart = Math.min(startTime, start + 24 * HOUR);
    const runDays = stopTime === undefined ? 0 : Math.max(1, Math.ceil((stopTime - firstStart) / DAY));
    const adsetBudgets = position % 5 === 4 || (position % 5 === 1 && runDays > 0);
    // A lifetime budget needs an end: ad-set budgets and every other campaign budget with an end take one.
    const lifetime = runDays > 0 && (adsetBudgets || position % 2 === 1);
    const budget = lifetime ? { lifetimeBudgetCents: daily * runDays } : { dailyBudgetCents: daily };
    const campaign = this.addCampaign({
      accountId: account.accountId,
      name,
      startTime: firstStart,
      stopTime,
      ...(adsetBudgets ? {} : budget),
    });
    // Some campaigns and ads were paused by someone part-way through their run.
    if (random.chance(0.15)) pauseBetween(campaign.statusLog, campaign.startTime, start, random);
    const adset = this.addAdSet(campaign, `${short} - Age 55+ - 25mi`, adsetBudgets ? budget : {});
    for (let a = 0; a < adsPerCampaign; a += 1) {
      const ad = this.addAd(adset, `${AD_CREATIVES[a % AD_CREATIVES.length]}`, regularProfile(random));
      if (random.chance(0.1)) pauseBetween(ad.statusLog, campaign.startTime, start, random);
    }
  }
}

function pauseBetween(log: StatusEvent[], from: number, to: number, random: Random): void {
  if (to <= from) {
    log[0]!.status = 'PAUSED';
    return;
  }
  log.push({ at: Math.round(from + (to - from) * random.between(0.3, 0.9)), status: 'PAUSED' });
}

function regularProfile(random: Random): DeliveryProfile {
  const roll = random.next();
  return {
    spendPerHour: Number(random.between(0.6, 3.2).toFixed(2)),
    cpm: Number(random.between(14, 38).toFixed(2)),
    ctrPct: Number(random.between(0.7, 2.6).toFixed(3)),
    linkShare: Number(random.between(0.55, 0.85).toFixed(3)),
    leads: roll < 0.1 ? { kind: 'none' } : { kind: 'per_spend', cpl: Number(random.between(18, 85).toFixed(2)) },
    websiteShare: random.chance(0.3) ? Number(random.between(0.2, 0.6).toFixed(2)) : 0,
  };
}
