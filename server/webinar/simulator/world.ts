/**
 * The Demio simulator's world, built from the Graph simulator's: one Demio account per ad account,
 * one event per webinar topic the account advertises (`Retirement Planning Webinar - Harbor Wealth
 * Advisors`), and one event date per moment a webinar campaign's name advertises (-W campaigns;
 * seminars are held in person and have no Demio event). Dates are fixed when the world is built;
 * who registered and attended is worked out at each moment (participants.ts).
 */
import { parseCampaignName, topicName } from '../../../shared/campaignName';
import type { SimAccount, World } from '../../adplatform/simulator/world';
import { advertisedDates } from '../eventMatching';

/** How long every simulated webinar lasts. */
export const EVENT_MINUTES = 60;

export interface DemioAccount {
  /** The ad account (digits) whose campaigns advertise this account's webinars. */
  adAccountId: string;
  name: string;
  apiKey: string;
  apiSecret: string;
  timezone: string;
}

export interface DemioEventDate {
  dateId: number;
  eventId: number;
  /** ms */
  startsAt: number;
  zone: string;
  /** The Graph campaigns whose names advertise this date. */
  campaignIds: string[];
}

export interface DemioEvent {
  id: number;
  adAccountId: string;
  name: string;
  description: string;
  registrationCode: string;
  dates: DemioEventDate[];
}

/** The simulator's keys for an ad account's Demio account (listed by GET /__sim/accounts). */
export const simulatedKeys = (adAccountId: string) => ({
  apiKey: `sim_key_${adAccountId}`,
  apiSecret: `sim_secret_${adAccountId}`,
});

export class DemioWorld {
  readonly accounts: DemioAccount[];
  readonly events: DemioEvent[] = [];
  private readonly dates = new Map<number, DemioEventDate>();
  /** Each campaign's dates, soonest first. */
  private readonly datesOfCampaign = new Map<string, DemioEventDate[]>();

  constructor(readonly graph: World) {
    this.accounts = graph.accounts.map((account) => ({
      adAccountId: account.accountId,
      name: account.name,
      timezone: account.timezone,
      ...simulatedKeys(account.accountId),
    }));
    let nextEvent = 1000;
    let nextDate = 50_000;
    for (const account of graph.accounts) {
      for (const [topic, moments] of this.webinarsOf(account)) {
        const event: DemioEvent = {
          id: nextEvent++,
          adAccountId: account.accountId,
          name: `${topicName(topic)} Webinar - ${account.name}`,
          description: `A free ${topicName(topic)?.toLowerCase()} webinar by ${account.name}`,
          registrationCode: `sim${account.accountId.slice(-6)}${topic}`,
          dates: [],
        };
        for (const [startsAt, campaignIds] of [...moments].sort(([a], [b]) => a - b)) {
          const date = { dateId: nextDate++, eventId: event.id, startsAt, zone: account.timezone, campaignIds };
          event.dates.push(date);
          this.dates.set(date.dateId, date);
          for (const campaignId of campaignIds)
            this.datesOfCampaign.set(campaignId, [...(this.datesOfCampaign.get(campaignId) ?? []), date]);
        }
        this.events.push(event);
      }
    }
  }

  accountByKey(apiKey: string, apiSecret: string): DemioAccount | undefined {
    return this.accounts.find((a) => a.apiKey === apiKey && a.apiSecret === apiSecret);
  }

  eventsOf(account: DemioAccount): DemioEvent[] {
    return this.events.filter((event) => event.adAccountId === account.adAccountId);
  }

  date(dateId: number): DemioEventDate | undefined {
    return this.dates.get(dateId);
  }

  event(eventId: number): DemioEvent | undefined {
    return this.events.find((event) => event.id === eventId);
  }

  /**
   * The date a person who became a lead of the campaign at `at` registers for: the first of the
   * campaign's dates that has not started by then (a campaign for weekly dates fills each in turn).
   */
  dateFor(campaignId: string, at: number): DemioEventDate | undefined {
    return this.datesOfCampaign.get(campaignId)?.find((date) => date.startsAt > at);
  }

  /** Per webinar topic, the advertised moments and the campaigns advertising each, in campaign order. */
  private webinarsOf(account: SimAccount): Map<string, Map<number, string[]>> {
    const topics = new Map<string, Map<number, string[]>>();
    for (const campaign of this.graph.campaigns.values()) {
      if (campaign.accountId !== account.accountId) continue;
      const parsed = parseCampaignName(campaign.name);
      if (!parsed.is_webinar || !parsed.topic) continue;
      for (const { startsAt } of advertisedDates(campaign.name, account.timezone)) {
        if (startsAt === null) continue;
        const moments = topics.get(parsed.topic) ?? new Map<number, string[]>();
        moments.set(startsAt, [...(moments.get(startsAt) ?? []), campaign.id]);
        topics.set(parsed.topic, moments);
      }
    }
    return topics;
  }
}

/** scheduled → running (for EVENT_MINUTES) → finished, by the simulated clock. */
export function dateStatus(date: DemioEventDate, now: number): 'scheduled' | 'running' | 'finished' {
  if (now < date.startsAt) return 'scheduled';
  return now < date.startsAt + EVENT_MINUTES * 60_000 ? 'running' : 'finished';
}
