/**
 * A campaign's event date chosen by hand, for a name that advertises none: the campaign's folder
 * (its ad account's first live folder with Demio credentials) offers its Demio dates, and the one
 * chosen is stored in campaign_events with source 'chosen' (a new choice replaces the old one).
 */
import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Database } from '../db/client';
import { campaignEvents, campaigns, folders, metaAdAccounts } from '../db/schema/index';
import { ApiError, notFound } from '../http/errors';
import type { DemioClient } from '../webinar/demioClient';
import { DemioAuthError } from '../webinar/errors';
import { advertisedDates } from '../webinar/eventMatching';
import type { DemioCredentials } from '../../shared/folders';
import { outcomeRetentionStart } from './retention';

export interface ChosenDateDeps {
  db: Database;
  demioFor?: (credentials: DemioCredentials) => DemioClient;
  decrypt(stored: string): DemioCredentials;
}

interface DateOption {
  event_id: number;
  event_name: string;
  date_id: number;
  starts_at: string;
}

async function campaignAndFolder(db: Database, campaignId: string) {
  const [campaign] = await db
    .select({ name: campaigns.campaignName, adAccountId: campaigns.adAccountId, zone: metaAdAccounts.timezoneName })
    .from(campaigns)
    .innerJoin(metaAdAccounts, eq(metaAdAccounts.adAccountId, campaigns.adAccountId))
    .where(eq(campaigns.campaignId, BigInt(campaignId)));
  if (!campaign) throw notFound('Campaign not found.');
  const [folder] = await db
    .select({ id: folders.id, credentials: folders.demioCredentials })
    .from(folders)
    .where(
      and(
        eq(folders.adAccountId, campaign.adAccountId),
        eq(folders.isDeleted, false),
        isNotNull(folders.demioCredentials),
      ),
    )
    .orderBy(asc(folders.id))
    .limit(1);
  const nameHasDate = advertisedDates(campaign.name, campaign.zone || 'UTC').length > 0;
  return { campaign, folder, nameHasDate };
}

async function optionsOf(deps: ChosenDateDeps, stored: string): Promise<DateOption[]> {
  if (!deps.demioFor) throw new ApiError(503, { detail: 'The webinar service is not available on this server.' });
  let client: DemioClient;
  try {
    client = deps.demioFor(deps.decrypt(stored));
  } catch {
    throw new ApiError(409, { detail: "The folder's webinar credentials cannot be read: enter them again." });
  }
  // A date past the retention would be pruned as soon as it was chosen (retention.ts).
  const kept = outcomeRetentionStart(new Date()).getTime();
  try {
    const options: DateOption[] = [];
    for (const summary of await client.listEvents()) {
      const event = await client.getEvent(summary.id);
      for (const d of (event.dates ?? []).filter((date) => date.timestamp * 1000 >= kept))
        options.push({
          event_id: event.id,
          event_name: event.name,
          date_id: d.date_id,
          starts_at: new Date(d.timestamp * 1000).toISOString(),
        });
    }
    return options.sort((a, b) => a.starts_at.localeCompare(b.starts_at));
  } catch (error) {
    if (error instanceof DemioAuthError) throw new ApiError(409, { detail: error.message });
    throw new ApiError(502, { detail: `Demio did not answer: ${error instanceof Error ? error.message : 'error'}` });
  }
}

/** The start of each campaign's date chosen by hand, for the campaigns that have one. */
export async function chosenDateStarts(db: Database, campaignIds: readonly string[]): Promise<Map<string, Date>> {
  if (!campaignIds.length) return new Map();
  const rows = await db
    .select({ campaignId: campaignEvents.campaignId, startsAt: campaignEvents.startsAt })
    .from(campaignEvents)
    .where(and(inArray(campaignEvents.campaignId, [...campaignIds]), eq(campaignEvents.source, 'chosen')));
  return new Map(rows.map((r) => [r.campaignId, r.startsAt]));
}

const dateDto = (row: typeof campaignEvents.$inferSelect) => ({
  event_id: row.eventId,
  date_id: row.dateId,
  starts_at: row.startsAt.toISOString(),
  source: row.source as 'name' | 'chosen',
});

/** The campaign's stored dates and, when its name has none, the Demio dates a person may choose. */
export async function campaignEventDates(deps: ChosenDateDeps, campaignId: string) {
  const { folder, nameHasDate } = await campaignAndFolder(deps.db, campaignId);
  const rows = await deps.db
    .select()
    .from(campaignEvents)
    .where(eq(campaignEvents.campaignId, campaignId))
    .orderBy(asc(campaignEvents.startsAt));
  const options = !nameHasDate && folder?.credentials ? await optionsOf(deps, folder.credentials) : [];
  return { name_has_date: nameHasDate, dates: rows.map(dateDto), options };
}

/** Stores the chosen date (null: clears it); refused when the name has a date or the folder has no Demio. */
export async function chooseEventDate(
  deps: ChosenDateDeps,
  campaignId: string,
  choice: { event_id: number | null; date_id: number | null },
) {
  const { campaign, folder, nameHasDate } = await campaignAndFolder(deps.db, campaignId);
  if (nameHasDate)
    throw new ApiError(400, { date_id: ['The campaign name advertises its date; rename the campaign to change it.'] });
  if (!folder?.credentials)
    throw new ApiError(400, { date_id: ["No folder of this campaign's ad account has webinar credentials."] });
  const mine = and(eq(campaignEvents.campaignId, campaignId), eq(campaignEvents.source, 'chosen'));
  if (choice.date_id === null || choice.event_id === null) {
    await deps.db.delete(campaignEvents).where(mine);
    return campaignEventDates(deps, campaignId);
  }
  const option = (await optionsOf(deps, folder.credentials)).find(
    (o) => o.date_id === choice.date_id && o.event_id === choice.event_id,
  );
  if (!option) throw new ApiError(400, { date_id: ["This date is not one of the folder's Demio event dates."] });
  await deps.db.transaction(async (tx) => {
    await tx.delete(campaignEvents).where(mine);
    await tx.insert(campaignEvents).values({
      folderId: folder.id,
      adAccountId: campaign.adAccountId,
      campaignId,
      eventId: option.event_id,
      dateId: option.date_id,
      startsAt: new Date(option.starts_at),
      source: 'chosen',
    });
  });
  return campaignEventDates(deps, campaignId);
}
