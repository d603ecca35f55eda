/**
 * A folder's lead outcomes (`GET /api/folders/{id}/outcomes/`): its ad account's campaigns summed.
 *
 * - Webinar: registrations, attendees, show-up rate and cost per attendee over the campaigns with a
 *   happened event date, each campaign as the campaigns list counts it (campaignTotals.ts); all null
 *   (N/A) before any date happened. The cost divides every such campaign's spend, with or without
 *   attendees: money spent on a webinar nobody came to is part of what an attendee cost.
 * - CRM stages (when the account's leads have CRM outcomes): the leads that reached each stage and
 *   those old enough to be judged there (store.ts); the cost per stage divides the spend on the
 *   judged leads (a campaign's lifetime spend in proportion of its leads judged, as the rule's
 *   cost-per-stage task takes an ad's) by the leads that reached the stage.
 */
import { eq } from 'drizzle-orm';
import type { FolderOutcomes, StageTotal } from '../../shared/folderOutcomes';
import type { Database } from '../db/client';
import { campaigns, metaAdAccounts } from '../db/schema/index';
import { happenedCampaignIds, sumByCampaign } from './campaignTotals';
import { requireLiveFolder } from './crmKeys';
import { LEAD_STAGES } from './quality';
import { createOutcomeStore, type AdQualityOfCampaign, type OutcomeStore } from './store';

/** A campaign's lifetime spend and leads, as last synced. */
export interface CampaignFigures {
  spend: number;
  leads: number;
}

const cents = (value: number) => Math.round(value * 100) / 100;

function webinarTotals(
  ads: readonly AdQualityOfCampaign[],
  happenedCampaigns: readonly string[],
  figures: ReadonlyMap<string, CampaignFigures>,
) {
  const lifetimeSpend = new Map([...figures].map(([id, f]) => [id, f.spend]));
  const byCampaign = [...sumByCampaign(ads, happenedCampaigns, lifetimeSpend).values()];
  if (!byCampaign.length) return { registrations: null, attendees: null, show_up_rate: null, cost_per_attendee: null };
  const registrations = byCampaign.reduce((sum, c) => sum + c.registrations, 0);
  const attendees = byCampaign.reduce((sum, c) => sum + c.attendees, 0);
  const spends = byCampaign.flatMap((c) => (c.spend === null ? [] : [c.spend]));
  const spend = spends.length ? spends.reduce((sum, s) => sum + s, 0) : null;
  return {
    registrations,
    attendees,
    show_up_rate: registrations ? Math.round((attendees / registrations) * 10_000) / 10_000 : null,
    cost_per_attendee: spend !== null && attendees ? cents(spend / attendees) : null,
  };
}

function stageTotals(ads: readonly AdQualityOfCampaign[], figures: ReadonlyMap<string, CampaignFigures>): StageTotal[] {
  if (!ads.some((ad) => Object.keys(ad.stages).length)) return [];
  return LEAD_STAGES.map((stage) => {
    let reached = 0;
    let judged = 0;
    const judgedByCampaign = new Map<string, number>();
    for (const ad of ads) {
      const known = ad.stages[stage];
      if (!known) continue;
      reached += known.reached;
      judged += known.judged;
      if (ad.campaignId) judgedByCampaign.set(ad.campaignId, (judgedByCampaign.get(ad.campaignId) ?? 0) + known.judged);
    }
    let spend = 0;
    for (const [campaignId, judgedLeads] of judgedByCampaign) {
      const campaign = figures.get(campaignId);
      if (!campaign || !judgedLeads) continue;
      spend += campaign.leads > judgedLeads ? (campaign.spend * judgedLeads) / campaign.leads : campaign.spend;
    }
    return { stage, reached, judged, cost: reached ? cents(spend / reached) : null };
  });
}

/** The folder's totals from its account's ads' qualities, happened campaigns and campaign figures. */
export function folderTotalsOf(
  ads: Iterable<AdQualityOfCampaign>,
  happenedCampaigns: Iterable<string>,
  figures: ReadonlyMap<string, CampaignFigures>,
): Omit<FolderOutcomes, 'currency'> {
  const adList = [...ads];
  return { ...webinarTotals(adList, [...happenedCampaigns], figures), stages: stageTotals(adList, figures) };
}

/** `outcomes`: where the ads' qualities are read (the outcome store over `db` when absent). */
export function createFolderOutcomeStore(
  db: Database,
  { outcomes = createOutcomeStore(db) }: { outcomes?: OutcomeStore } = {},
) {
  /** The live folder's totals as known at `at` (404 for a folder unknown or in the trash). */
  async function totals(folderId: number, at = new Date()): Promise<FolderOutcomes> {
    const { folder } = await requireLiveFolder(db, folderId);
    const adAccountId = folder.adAccountId;
    const [happened, ads, rows, [account]] = await Promise.all([
      happenedCampaignIds(db, adAccountId, at),
      outcomes.adQualities(adAccountId, at),
      db
        .select({ id: campaigns.campaignId, spend: campaigns.spend, leads: campaigns.leads })
        .from(campaigns)
        .where(eq(campaigns.adAccountId, adAccountId)),
      db
        .select({ currency: metaAdAccounts.currency })
        .from(metaAdAccounts)
        .where(eq(metaAdAccounts.adAccountId, adAccountId)),
    ]);
    const figures = new Map(rows.map((r) => [r.id.toString(), { spend: Number(r.spend), leads: r.leads }]));
    return { ...folderTotalsOf(ads.values(), happened, figures), currency: account?.currency ?? null };
  }

  return { totals };
}

export type FolderOutcomeStore = ReturnType<typeof createFolderOutcomeStore>;
