/**
 * The backtest bench's history: ads × days of hourly readings written through the history's own
 * bulk writer, each ad a steady spender — most bring leads at their own cost, some never do.
 */
import type { Database } from '../../server/db/client';
import { metaAdAccounts, folders } from '../../server/db/schema/index';
import { DAY_MS, METRICS, type MetricName } from '../../server/history/reading';
import { writeNames, writeSettledDays, type AdNaming, type SettledDay } from '../../server/history/store';

export async function seedHistory(db: Database, ads: number, days: number, now: Date) {
  const adAccountId = 'act_bench_backtest';
  await db.insert(metaAdAccounts).values({ adAccountId, accountName: 'Backtest bench', timezoneName: 'UTC' });
  const [folder] = await db
    .insert(folders)
    .values({ name: 'Backtest bench', clientType: 'EDM', plan: 'solo', adAccountId })
    .returning();
  const firstDay = Math.floor(now.getTime() / DAY_MS) - days - 2;
  const rows: SettledDay[] = [];
  const names = [];
  for (let i = 0; i < ads; i += 1) {
    const adId = `ad${i}`;
    const campaignId = `c${Math.floor(i / 10)}`;
    names.push(steadySpenderName(adId, i, campaignId));
    rows.push(...steadySpenderDays({ adId, campaignId, spendPerHour: 1 + (i % 5), cpl: cplOf(i), firstDay, days }));
  }
  await writeSettledDays(db, adAccountId, rows);
  await writeNames(db, adAccountId, names, now);
  return { adAccountId, folderId: folder!.id, adDays: rows.length };
}

/** The name row of the bench's `i`th ad of an account: an EDM campaign's (the rules' filter), a lead-form goal. */
export const steadySpenderName = (adId: string, i: number, campaignId: string): AdNaming => ({
  adId,
  adName: `Ad ${i}`,
  campaignId,
  campaignName: `EDM Campaign ${campaignId}`,
  budgetCents: 50_000,
  optimizationGoal: 'OFFSITE_CONVERSIONS',
});

/** A steady spender's never-converting share: every fourth ad; the others at $20 to $68 a lead. */
export const cplOf = (i: number) => (i % 4 === 0 ? Number.POSITIVE_INFINITY : 20 + (i % 7) * 8);

/** An ad's `days + 3` settled days of hourly readings from `firstDay` (days since the epoch), at its spend rate and cost per lead. */
export function steadySpenderDays(ad: {
  adId: string;
  campaignId: string;
  spendPerHour: number;
  cpl: number;
  firstDay: number;
  days: number;
}): SettledDay[] {
  const rows: SettledDay[] = [];
  for (let d = 0; d < ad.days + 3; d += 1) {
    const values = {} as Record<MetricName, (number | null)[]>;
    for (const metric of METRICS) values[metric] = [];
    for (let h = 0; h < 24; h += 1) {
      const spend = ad.spendPerHour * (d * 24 + h);
      values.spendCents.push(spend * 100);
      values.impressions.push(spend * 45);
      values.clicks.push(Math.floor(spend * 0.6));
      values.linkClicks.push(Math.floor(spend * 0.4));
      values.leads.push(Number.isFinite(ad.cpl) ? Math.floor(spend / ad.cpl) : 0);
      values.websiteLeads.push(0);
    }
    rows.push({
      day: new Date((ad.firstDay + d) * DAY_MS).toISOString().slice(0, 10),
      adId: ad.adId,
      campaignId: ad.campaignId,
      values,
      readMask: 0xffffff,
      onMask: 0xffffff,
      campaignOnMask: 0xffffff,
    });
  }
  return rows;
}
