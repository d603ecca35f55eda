/**
 * The subscriptions watched as the simulator's clock moves: at each look, every subscribed
 * object's numbers (as insights report them at that moment) and fields are compared with the
 * last look, and what crossed is sent to the app's callback, one delivery per ad account
 * (Meta's envelope: `{object: 'ad_account', entry: [{id, time, changes: [{field: 'subscriptions',
 * value}]}]}`). A notification names the subscription and the object, never the values: the app
 * reads them (a field change says which field changed, not to what).
 *
 * - INSIGHTS_UPDATED: every filter holds now and did not at the last look, for an object delivering now;
 * - INSIGHTS_MILESTONE_REACHED: the metric passed one more multiple of the step;
 * - METADATA_UPDATED: a watched field has another value.
 * What held before a subscription was made (or before an object was first seen) is no crossing.
 */
import { DateTime } from 'luxon';
import { add, statusAt, ZERO, type Totals } from './delivery';
import { effectiveStatus } from './nodes';
import { reportedTotals, reportFrame, type ReportFrame } from './reporting';
import type { SimClock } from './clock';
import type { SimSubscription, SubscriptionBook, ThresholdFilter } from './subscriptions';
import type { WebhookSender } from './webhooks';
import type { SimAccount, SimAd, SimCampaign, World } from './world';

type Watched = SimAd | SimCampaign;
/** What a look keeps per (subscription, object): whether the filters held, the milestone count, or the fields. */
type Reading = boolean | number | string;

/** While the clock runs by itself, how often (real time) it is looked at. */
const RUNNING_CHECK_MS = 1000;

/** One account's numbers at one moment, worked out once per look and object. */
class AccountMoment {
  private readonly frame: ReportFrame;
  private readonly totals = new Map<string, Totals>();
  private readonly today = new Map<string, Totals>();
  private midnight: number | undefined;

  constructor(
    private readonly world: World,
    readonly account: SimAccount,
    readonly at: number,
    private readonly adsByCampaign: ReadonlyMap<string, SimAd[]>,
  ) {
    this.frame = reportFrame(at, account.timezone);
  }

  private adsOf(object: Watched): SimAd[] {
    if ('adsetId' in object) return object.deleted ? [] : [object];
    return this.adsByCampaign.get(object.id) ?? [];
  }

  lifetime(object: Watched): Totals {
    let found = this.totals.get(object.id);
    if (!found) {
      found = this.adsOf(object).reduce(
        (sum, ad) => add(sum, reportedTotals(this.world, ad, -Infinity, this.at, this.frame)),
        ZERO,
      );
      this.totals.set(object.id, found);
    }
    return found;
  }

  sinceMidnight(object: Watched): Totals {
    this.midnight ??= DateTime.fromMillis(this.at, { zone: this.account.timezone }).startOf('day').toMillis();
    let found = this.today.get(object.id);
    if (!found) {
      found = this.adsOf(object).reduce(
        (sum, ad) => add(sum, reportedTotals(this.world, ad, this.midnight!, this.at, this.frame)),
        ZERO,
      );
      this.today.set(object.id, found);
    }
    return found;
  }

  /** A metric in the units of Meta's rule filters (money in cents); undefined when it cannot be known (no leads for a CPL). */
  metric(object: Watched, field: string): number | undefined {
    const t = field === 'today_spent' ? this.sinceMidnight(object) : this.lifetime(object);
    const cents = Math.round(t.spend * 100);
    const leads = t.onsiteLeads + t.websiteLeads;
    const per = (count: number) => (count > 0 ? cents / count : undefined);
    switch (field) {
      case 'spend':
      case 'today_spent':
        return cents;
      case 'impressions':
        return t.impressions;
      case 'clicks':
        return t.clicks;
      case 'link_clicks':
        return t.linkClicks;
      case 'ctr':
        return t.impressions > 0 ? (t.clicks / t.impressions) * 100 : undefined;
      case 'cpc':
        return per(t.clicks);
      case 'leadgen':
        return leads;
      case 'website_leads':
        return t.websiteLeads;
      case 'cost_per_lead_fb':
        return per(leads);
      case 'cost_per_website_lead':
        return per(t.websiteLeads);
      default:
        return undefined;
    }
  }
}

const holds = (value: number | undefined, filter: ThresholdFilter) =>
  value !== undefined && (filter.operator === 'GREATER_THAN' ? value > filter.value : value < filter.value);

function fieldValue(world: World, object: Watched, field: string, at: number): unknown {
  if (field === 'effective_status') return effectiveStatus(world, object, at);
  if (field === 'status') return statusAt(object.statusLog, at);
  if (field === 'name') return object.name;
  return 'dailyBudgetCents' in object ? (object.dailyBudgetCents ?? null) : null;
}

export class CrossingWatch {
  private readonly readings = new Map<string, Reading>();
  private lastLook: number | undefined;
  private looking: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;
  private readonly stopListening: () => void;

  constructor(
    private readonly world: World,
    private readonly clock: SimClock,
    private readonly book: SubscriptionBook,
    private readonly sender: WebhookSender,
  ) {
    this.stopListening = clock.onMove(() => void this.check());
    this.timer = setInterval(() => {
      if (this.clock.speed > 0) void this.check();
    }, RUNNING_CHECK_MS);
    this.timer.unref();
  }

  /** Looks at the subscriptions at the clock's moment (one look at a time); resolves when that look's deliveries are sent. */
  check(): Promise<void> {
    this.looking = this.looking.then(() => this.look(this.clock.now())).catch(() => undefined);
    return this.looking;
  }

  /** Resolves once every look asked for and every delivery it made are done. */
  async idle(): Promise<void> {
    await this.looking;
    await this.sender.idle();
  }

  stop(): void {
    clearInterval(this.timer);
    this.stopListening();
  }

  private look(now: number): void {
    const previous = this.lastLook;
    if (previous !== undefined && now <= previous) return;
    this.lastLook = now;
    if (!this.sender.callbackUrl) return;
    this.moments.clear();
    const byAccount = new Map<string, SimSubscription[]>();
    for (const s of this.book.list()) byAccount.set(s.accountId, [...(byAccount.get(s.accountId) ?? []), s]);
    if (!byAccount.size) return;
    const adsByCampaign = new Map<string, SimAd[]>();
    for (const ad of this.world.ads.values())
      if (!ad.deleted && byAccount.has(ad.accountId))
        adsByCampaign.set(ad.campaignId, [...(adsByCampaign.get(ad.campaignId) ?? []), ad]);
    for (const [accountId, subscriptions] of byAccount) {
      const account = this.world.account(accountId);
      if (!account) continue;
      const moment = new AccountMoment(this.world, account, now, adsByCampaign);
      const campaigns = [...this.world.campaigns.values()].filter((c) => c.accountId === accountId);
      const objects = { CAMPAIGN: campaigns, AD: campaigns.flatMap((c) => adsByCampaign.get(c.id) ?? []) };
      const values: Record<string, unknown>[] = [];
      for (const subscription of subscriptions) {
        const since = Math.max(subscription.createdTime, previous ?? subscription.createdTime);
        for (const object of objects[subscription.objectType]) {
          const key = `${subscription.id}:${object.id}`;
          const current = this.reading(subscription, object, moment);
          const before =
            this.readings.get(key) ?? this.reading(subscription, object, this.momentAt(account, since, adsByCampaign));
          this.readings.set(key, current);
          if (!this.crossed(subscription, object, before, current, now)) continue;
          values.push({
            subscription_id: subscription.id,
            event_type: subscription.eventType,
            object_type: subscription.objectType,
            object_id: object.id,
            event_time: Math.floor(now / 1000),
            ...(subscription.eventType === 'METADATA_UPDATED' ? { changed_fields: subscription.fields } : {}),
          });
        }
      }
      if (values.length)
        this.sender.send(
          {
            object: 'ad_account',
            entry: [
              {
                id: accountId,
                time: Math.floor(now / 1000),
                changes: values.map((value) => ({ field: 'subscriptions', value })),
              },
            ],
          },
          now,
        );
    }
  }

  private readonly moments = new Map<string, AccountMoment>();

  /** A past moment's numbers, for an object seen for the first time (kept for the rest of the look). */
  private momentAt(account: SimAccount, at: number, adsByCampaign: ReadonlyMap<string, SimAd[]>): AccountMoment {
    const key = `${account.accountId}@${at}`;
    let moment = this.moments.get(key);
    if (!moment) {
      moment = new AccountMoment(this.world, account, at, adsByCampaign);
      this.moments.set(key, moment);
    }
    return moment;
  }

  private reading(subscription: SimSubscription, object: Watched, moment: AccountMoment): Reading {
    if (subscription.eventType === 'INSIGHTS_UPDATED')
      return subscription.filters.every((f) => holds(moment.metric(object, f.field), f));
    if (subscription.milestone) {
      const { field, step } = subscription.milestone;
      return Math.floor((moment.metric(object, field) ?? 0) / step);
    }
    return JSON.stringify(subscription.fields.map((f) => fieldValue(this.world, object, f, moment.at)));
  }

  private crossed(subscription: SimSubscription, object: Watched, before: Reading, now: Reading, at: number): boolean {
    if (subscription.eventType === 'METADATA_UPDATED') return now !== before;
    // Numbers are told only of what delivers: a paused object's reports still settle, but nothing of it is spent.
    if (effectiveStatus(this.world, object, at) !== 'ACTIVE') return false;
    return subscription.eventType === 'INSIGHTS_UPDATED' ? now === true && before === false : now > before;
  }
}
