/**
 * An ad account's outcome rows up to a moment (leads created, facts occurred by then, every event
 * date), each with when it became known here: a lead once created and read from Meta (`read_at`), a
 * fact once it occurred and was recorded (`recorded_at`: Demio's show-ups are dated at the event's
 * start but read hours after it). The store answers from them as they are; the backtest replays
 * them as known at each hour (qualityHistory.ts).
 */
import { and, eq, inArray, lte, min } from 'drizzle-orm';
import type { Database } from '../db/client';
import { adHistoryNames, campaignEvents, folders, leadOutcomes, leadPeople } from '../db/schema/index';
import type { EventDateFact, LeadFact, OutcomeFact } from './qualityOf';

export interface Known {
  knownAt: number;
}

export interface OutcomeRows {
  leads: (LeadFact & Known)[];
  dates: EventDateFact[];
  outcomes: (OutcomeFact & Known)[];
  /** The account's folders have sent CRM outcomes (at any time). */
  sendsCrm: boolean;
}

export async function readOutcomeRows(db: Database, adAccountId: string, at: Date): Promise<OutcomeRows> {
  const folderIds = (await db.select({ id: folders.id }).from(folders).where(eq(folders.adAccountId, adAccountId))).map(
    (f) => f.id,
  );
  const [leadRows, dateRows, outcomeRows] = await Promise.all([
    db
      .select()
      .from(leadPeople)
      .where(and(eq(leadPeople.adAccountId, adAccountId), lte(leadPeople.createdTime, at))),
    db
      .select({
        campaignId: campaignEvents.campaignId,
        dateId: campaignEvents.dateId,
        startsAt: campaignEvents.startsAt,
        readAt: min(campaignEvents.participantsReadAt),
      })
      .from(campaignEvents)
      .where(eq(campaignEvents.adAccountId, adAccountId))
      .groupBy(campaignEvents.campaignId, campaignEvents.dateId, campaignEvents.startsAt),
    folderIds.length
      ? db
          .select()
          .from(leadOutcomes)
          .where(and(inArray(leadOutcomes.folderId, folderIds), lte(leadOutcomes.occurredAt, at)))
      : Promise.resolve([]),
  ]);
  const outcomes = outcomeRows.map((o) => ({
    source: o.source,
    kind: o.kind,
    leadKey: o.leadKey,
    sourceRef: o.sourceRef,
    adId: o.adId,
    knownAt: Math.max(o.occurredAt.getTime(), o.recordedAt.getTime()),
  }));
  return {
    leads: leadRows.map((l) => ({
      leadId: l.leadId,
      adId: l.adId,
      campaignId: l.campaignId,
      email: l.emailSha256,
      created: l.createdTime.getTime(),
      knownAt: Math.max(l.createdTime.getTime(), l.readAt.getTime()),
    })),
    dates: dateRows.map((d) => ({
      campaignId: d.campaignId,
      dateId: String(d.dateId),
      startsAt: d.startsAt.getTime(),
      readAt: d.readAt ? new Date(d.readAt).getTime() : null,
    })),
    outcomes,
    sendsCrm: outcomes.some((o) => o.source === 'crm') || (await sendsCrm(db, folderIds)),
  };
}

async function sendsCrm(db: Database, folderIds: number[]): Promise<boolean> {
  if (!folderIds.length) return false;
  const [row] = await db
    .select({ id: leadOutcomes.id })
    .from(leadOutcomes)
    .where(and(inArray(leadOutcomes.folderId, folderIds), eq(leadOutcomes.source, 'crm')))
    .limit(1);
  return row !== undefined;
}

/** The campaign of each ad, from the metric history's names (ads it never read are absent). */
export async function campaignsOfAds(db: Database, adIds: string[]): Promise<Map<string, string>> {
  if (!adIds.length) return new Map();
  const named = await db
    .select({ adId: adHistoryNames.adId, campaignId: adHistoryNames.campaignId })
    .from(adHistoryNames)
    .where(inArray(adHistoryNames.adId, adIds));
  return new Map(named.map((n) => [n.adId, n.campaignId]));
}
