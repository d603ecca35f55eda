/**
 * Recording what the platform reported at an ad-level read (engine runs, Preview): one upsert of
 * the account's ads into their UTC day's row, at the reading's UTC hour, and one of their names
 * (and optimisation goal: a read that does not report it keeps the one known).
 * At most one reading per ad and hour is kept — the first live one; a backfilled (settled) value in
 * that hour gives way to it.
 */
import { sql } from 'drizzle-orm';
import type { Ad, Campaign, InsightRow } from '../adplatform/types';
import type { Database } from '../db/client';
import { isOn } from '../judgement/deliveryStatus';
import { bucketOf, numbersOf } from './reading';

export interface AccountReading {
  adAccountId: string;
  readAt: Date;
  campaigns: Campaign[];
  ads: Ad[];
  /** Ad-level lifetime insights, as the platform answered them. */
  insights: InsightRow[];
}

/** The campaign's daily budget in minor units (Graph sends a numeric string), when it has one. */
const budgetOf = (campaign: Campaign | undefined): number | null => {
  const n = Number(campaign?.daily_budget);
  return campaign?.daily_budget && Number.isFinite(n) && n > 0 && n < 2 ** 31 ? Math.round(n) : null;
};

export async function recordReading(db: Database, reading: AccountReading): Promise<number> {
  const campaignsById = new Map(reading.campaigns.map((c) => [c.id, c]));
  const adsById = new Map(reading.ads.map((a) => [a.id, a]));
  const rows = reading.insights
    .filter((row): row is InsightRow & { ad_id: string } => Boolean(row.ad_id))
    .map((row) => {
      const ad = adsById.get(row.ad_id);
      const campaign = campaignsById.get(row.campaign_id);
      const n = numbersOf(row);
      return {
        ad_id: row.ad_id,
        campaign_id: row.campaign_id,
        spend_cents: n.spendCents,
        impressions: n.impressions,
        clicks: n.clicks,
        link_clicks: n.linkClicks,
        leads: n.leads,
        website_leads: n.websiteLeads,
        on: ad ? isOn(ad) : false,
        campaign_on: campaign ? isOn(campaign) : false,
        ad_name: row.ad_name ?? ad?.name ?? row.ad_id,
        campaign_name: campaign?.name ?? row.campaign_name ?? row.campaign_id,
        budget: budgetOf(campaign),
        goal: row.optimization_goal ?? null,
      };
    });
  if (!rows.length) return 0;
  const { day, hour } = bucketOf(reading.readAt);
  const bit = sql.raw(String(1 << hour));
  const at = sql.raw(String(hour + 1)); // PostgreSQL arrays count from 1
  const placed = (column: string) =>
    sql.raw(`array_fill(null::int, array[${hour}]) || r.${column} || array_fill(null::int, array[${23 - hour}])`);
  const json = JSON.stringify(rows);
  await db.execute(sql`
    insert into ad_metric_history as h (ad_account_id, day, ad_id, campaign_id, spend_cents, impressions, clicks,
      link_clicks, leads, website_leads, read_mask, settled_mask, on_mask, campaign_on_mask)
    select ${reading.adAccountId}, ${day}::date, r.ad_id, r.campaign_id, ${placed('spend_cents')},
      ${placed('impressions')}, ${placed('clicks')}, ${placed('link_clicks')}, ${placed('leads')},
      ${placed('website_leads')}, ${bit}, 0, case when r.on then ${bit} else 0 end,
      case when r.campaign_on then ${bit} else 0 end
    from jsonb_to_recordset(${json}::jsonb) as r(ad_id text, campaign_id text, spend_cents int, impressions int,
      clicks int, link_clicks int, leads int, website_leads int, "on" boolean, campaign_on boolean)
    on conflict (ad_account_id, day, ad_id) do update set
      campaign_id = excluded.campaign_id,
      spend_cents[${at}] = excluded.spend_cents[${at}],
      impressions[${at}] = excluded.impressions[${at}],
      clicks[${at}] = excluded.clicks[${at}],
      link_clicks[${at}] = excluded.link_clicks[${at}],
      leads[${at}] = excluded.leads[${at}],
      website_leads[${at}] = excluded.website_leads[${at}],
      read_mask = h.read_mask | ${bit},
      settled_mask = h.settled_mask & ~${bit},
      on_mask = (h.on_mask & ~${bit}) | excluded.on_mask,
      campaign_on_mask = (h.campaign_on_mask & ~${bit}) | excluded.campaign_on_mask
    where h.read_mask & ${bit} = 0 or h.settled_mask & ${bit} <> 0`);
  await db.execute(sql`
    insert into ad_history_names as n (ad_id, ad_account_id, ad_name, campaign_id, campaign_name,
      campaign_daily_budget, optimization_goal, read_at)
    select r.ad_id, ${reading.adAccountId}, r.ad_name, r.campaign_id, r.campaign_name, r.budget, r.goal,
      ${reading.readAt.toISOString()}::timestamptz
    from jsonb_to_recordset(${json}::jsonb) as r(ad_id text, campaign_id text, ad_name text, campaign_name text,
      budget int, goal text)
    on conflict (ad_id) do update set ad_account_id = excluded.ad_account_id, ad_name = excluded.ad_name,
      campaign_id = excluded.campaign_id, campaign_name = excluded.campaign_name,
      campaign_daily_budget = excluded.campaign_daily_budget,
      optimization_goal = coalesce(excluded.optimization_goal, n.optimization_goal), read_at = excluded.read_at
    where n.read_at <= excluded.read_at`);
  return rows.length;
}
