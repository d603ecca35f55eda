/**
 * A campaign's webinar outcomes, the sum of its ads' (store.ts), as the campaigns list shows and
 * filters them: registrations, attendees, show-up rate and cost per attendee, all null (N/A) until
 * an event date the campaign advertises has happened. Cost per attendee divides the ads' settled
 * spend (metric history at the last happened date); when the history holds none of it, the
 * campaign's lifetime spend as last synced.
 */
import { and, eq, inArray, lte } from 'drizzle-orm';
import type { Database } from '../db/client';
import { campaignEvents, campaigns } from '../db/schema/index';
import type { AdQualityOfCampaign, OutcomeStore } from './store';
import { createOutcomeColumnsStore } from '../campaigns/outcomeColumns';

export interface CampaignOutcome {
  registrations: number;
  attendees: number;
  showUpRate: number | null;
  costPerAttendee: number | null;
  /** The spend cost per attendee divides (null when neither the history nor the campaign knows it). */
  spend: number | null;
}

/** The totals of each campaign that has a happened event date, from its ads' qualities. */
export function sumByCampaign(
  ads: Iterable<AdQualityOfCampaign>,
  happenedCampaigns: Iterable<string>,
  lifetimeSpend: ReadonlyMap<string, number> = new Map(),
): Map<string, CampaignOutcome> {
  const totals = new Map<string, { registrations: number; attendees: number; spend: number | null }>();
  for (const id of happenedCampaigns) totals.set(id, { registrations: 0, attendees: 0, spend: null });
  for (const ad of ads) {
    const total = ad.campaignId ? totals.get(ad.campaignId) : undefined;
    if (!total) continue;
    total.registrations += ad.registrations;
    total.attendees += ad.attendees;
    if (ad.settledSpend !== null) total.spend = (total.spend ?? 0) + ad.settledSpend;
  }
  return new Map(
    [...totals].map(([id, t]) => {
      const spend = t.spend ?? lifetimeSpend.get(id) ?? null;
      return [
        id,
        {
          registrations: t.registrations,
          attendees: t.attendees,
          showUpRate: t.registrations ? t.attendees / t.registrations : null,
          costPerAttendee: spend !== null && t.attendees ? spend / t.attendees : null,
          spend,
        },
      ];
    }),
  );
}

/** The account's campaigns with an event date that has happened by `at`. */
export async function happenedCampaignIds(db: Database, adAccountId: string, at: Date): Promise<string[]> {
  const happened = await db
    .selectDistinct({ campaignId: campaignEvents.campaignId })
    .from(campaignEvents)
    .where(
      and(
        eq(campaignEvents.adAccountId, adAccountId),
        lte(campaignEvents.startsAt, at),
        lte(campaignEvents.participantsReadAt, at),
      ),
    );
  return happened.map((h) => h.campaignId).filter((id) => /^\d+$/.test(id));
}

/** The account's campaigns' totals as known at `at`. */
export async function campaignOutcomesAt(
  db: Database,
  store: OutcomeStore,
  adAccountId: string,
  at: Date,
): Promise<Map<string, CampaignOutcome>> {
  const ids = await happenedCampaignIds(db, adAccountId, at);
  if (!ids.length) return new Map();
  const [ads, spends] = await Promise.all([
    store.adQualities(adAccountId, at),
    db
      .select({ id: campaigns.campaignId, spend: campaigns.spend })
      .from(campaigns)
      .where(inArray(campaigns.campaignId, ids.map(BigInt))),
  ]);
  return sumByCampaign(ads.values(), ids, new Map(spends.map((s) => [s.id.toString(), Number(s.spend)])));
}

/** Writes the account's totals on its campaigns; the others of the account go back to N/A. */
export async function writeCampaignOutcomes(
  db: Database,
  store: OutcomeStore,
  adAccountId: string,
  at: Date,
): Promise<number> {
  const totals = await campaignOutcomesAt(db, store, adAccountId, at);
  await createOutcomeColumnsStore(db).write(adAccountId, totals);
  return totals.size;
}
