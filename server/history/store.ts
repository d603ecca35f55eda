/**
 * Maintaining the metric history (table ad_metric_history, see its schema): the bulk write of
 * backfilled (settled) days, what an account holds (the coverage its routes answer), and pruning.
 * Reading it: timeline.ts.
 */
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { adHistoryNames, adMetricHistory, folders } from '../db/schema/index';
import { notFound } from '../http/errors';
import { dayOf, METRICS, type MetricName } from './reading';

/** One ad's day of backfilled numbers: 24 cumulative values per metric (null: no reading). */
export interface SettledDay {
  day: string;
  adId: string;
  campaignId: string;
  values: Record<MetricName, (number | null)[]>;
  readMask: number;
  onMask: number;
  campaignOnMask: number;
}

/** The table's array column of each metric. */
export const COLUMN: Record<MetricName, string> = {
  spendCents: 'spend_cents',
  impressions: 'impressions',
  clicks: 'clicks',
  linkClicks: 'link_clicks',
  leads: 'leads',
  websiteLeads: 'website_leads',
};

/** Live readings (read, not settled) of the stored row win over the backfilled ones, hour by hour. */
const LIVE = 'h.read_mask & ~h.settled_mask';
const mergedColumn = (column: string) =>
  `${column} = array(select case when (${LIVE}) & (1 << (i - 1)) <> 0 then h.${column}[i] else excluded.${column}[i] end from generate_series(1, 24) as i order by i)`;

const WRITE_CHUNK = 2_000;

/** Writes backfilled days; the hours that already hold a live reading keep it. */
export async function writeSettledDays(db: Database, adAccountId: string, days: SettledDay[]): Promise<void> {
  const columns = Object.values(COLUMN);
  const merge = sql.raw(
    [
      'campaign_id = excluded.campaign_id',
      ...columns.map(mergedColumn),
      `on_mask = (h.on_mask & (${LIVE})) | (excluded.on_mask & ~(${LIVE}))`,
      `campaign_on_mask = (h.campaign_on_mask & (${LIVE})) | (excluded.campaign_on_mask & ~(${LIVE}))`,
      `settled_mask = (h.settled_mask | excluded.read_mask) & ~(${LIVE})`,
      'read_mask = h.read_mask | excluded.read_mask',
    ].join(',\n'),
  );
  const list = sql.raw(columns.join(', '));
  const types = sql.raw(columns.map((c) => `${c} int[]`).join(', '));
  for (let i = 0; i < days.length; i += WRITE_CHUNK) {
    const json = JSON.stringify(
      days.slice(i, i + WRITE_CHUNK).map((d) => ({
        day: d.day,
        ad_id: d.adId,
        campaign_id: d.campaignId,
        read_mask: d.readMask,
        on_mask: d.onMask,
        campaign_on_mask: d.campaignOnMask,
        ...Object.fromEntries(METRICS.map((m) => [COLUMN[m], d.values[m]])),
      })),
    );
    await db.execute(sql`
      insert into ad_metric_history as h (ad_account_id, day, ad_id, campaign_id, ${list}, read_mask,
        settled_mask, on_mask, campaign_on_mask)
      select ${adAccountId}, r.day, r.ad_id, r.campaign_id, ${list}, r.read_mask, r.read_mask, r.on_mask,
        r.campaign_on_mask
      from jsonb_to_recordset(${json}::jsonb) as r(day date, ad_id text, campaign_id text, ${types},
        read_mask int, on_mask int, campaign_on_mask int)
      on conflict (ad_account_id, day, ad_id) do update set ${merge}`);
  }
}

/** What the history names an ad by, and what it knows of its campaign's budget and its ad set's goal. */
export interface AdNaming {
  adId: string;
  adName: string;
  campaignId: string;
  campaignName: string;
  /** The campaign's daily budget in cents, when known. */
  budgetCents: number | null;
  /** The ad set's optimisation goal as last reported (null: not known); the lag allowance reads it. */
  optimizationGoal: string | null;
}

/**
 * Names of ads known only from a backfill (no live reading named them yet); an ad already named
 * keeps its names and gains the optimisation goal when its live readings did not report one.
 */
export async function writeNames(db: Database, adAccountId: string, names: AdNaming[], readAt: Date): Promise<void> {
  if (!names.length) return;
  await db
    .insert(adHistoryNames)
    .values(names.map((n) => ({ ...n, adAccountId, campaignDailyBudget: n.budgetCents, readAt })))
    .onConflictDoUpdate({
      target: adHistoryNames.adId,
      set: { optimizationGoal: sql`coalesce(${adHistoryNames.optimizationGoal}, excluded.optimization_goal)` },
    });
}

export interface HistoryCoverage {
  /** Days holding at least one reading. */
  days: number;
  ads: number;
  first: string | null;
  last: string | null;
  /** Readings kept in total, and how many of them are backfilled (settled) numbers. */
  readings: number;
  settledReadings: number;
}

const bits = (column: string) => sql.raw(`length(replace(((${column})::bit(24))::text, '0', ''))`);

export async function historyCoverage(db: Database, adAccountId: string): Promise<HistoryCoverage> {
  const [row] = await db
    .select({
      days: sql<number>`count(distinct ${adMetricHistory.day})::int`,
      ads: sql<number>`count(distinct ${adMetricHistory.adId})::int`,
      first: sql<string | null>`min(${adMetricHistory.day})::text`,
      last: sql<string | null>`max(${adMetricHistory.day})::text`,
      readings: sql<number>`coalesce(sum(${bits('read_mask')}), 0)::int`,
      settledReadings: sql<number>`coalesce(sum(${bits('settled_mask')}), 0)::int`,
    })
    .from(adMetricHistory)
    .where(eq(adMetricHistory.adAccountId, adAccountId));
  return row!;
}

/** Drops readings of days before `olderThan`'s UTC day, and names no longer read since. */
export async function pruneHistory(db: Database, olderThan: Date): Promise<void> {
  await db.delete(adMetricHistory).where(lt(adMetricHistory.day, dayOf(olderThan.getTime())));
  await db.delete(adHistoryNames).where(lt(adHistoryNames.readAt, olderThan));
}

/** The ad account of a folder that is not in the trash; 404 otherwise. */
async function accountOfFolder(db: Database, id: number): Promise<string> {
  const [folder] = await db
    .select({ adAccountId: folders.adAccountId })
    .from(folders)
    .where(and(eq(folders.id, id), eq(folders.isDeleted, false)));
  if (!folder) throw notFound();
  return folder.adAccountId;
}

/** What the history holds for an ad account, as the API answers it. */
const coverageOf = async (db: Database, adAccountId: string) => {
  const c = await historyCoverage(db, adAccountId);
  return {
    ad_account_id: adAccountId,
    days: c.days,
    ads: c.ads,
    first: c.first,
    last: c.last,
    readings: c.readings,
    settled_readings: c.settledReadings,
  };
};

/** The history's coverage over one database, as its routes read it. */
export function createHistoryStore(db: Database) {
  return {
    accountOfFolder: (folderId: number) => accountOfFolder(db, folderId),
    coverage: (adAccountId: string) => coverageOf(db, adAccountId),
  };
}

export type HistoryStore = ReturnType<typeof createHistoryStore>;
