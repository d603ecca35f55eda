/**
 * The outcome store's QualitySource: what each ad's leads had become at a moment, read from the
 * stored rows as they were known then (lead_people created ≤ at, lead_outcomes occurred ≤ at,
 * a campaign_events date counting as happened once started and its participants read by `at`: until
 * then its spend would be counted without its registrants), computed by qualityOf.ts. `history()` answers
 * the same at every hour of a backtest's span from rows read once, each seen from when it was recorded
 * (qualityHistory.ts). Docs: docs/engine.md, "What a lead became".
 *
 * - A registration is a person (e-mail hash) among the ad's leads who registered for a date the ad's
 *   campaign advertises, counted once however many of its dates they registered for (a person with
 *   leads on two ads of the campaign counts for the first one's); or a website
 *   registration whose UTM (`utm_content`) names the ad and whose e-mail is none of the ad's leads'.
 * - Demio registrations are read once a date has happened and recorded at its start, so every
 *   registration known at `at` is settled (settledRegistrations = registrations).
 * - settledSpend: the ad's lifetime spend in the metric history at the start of the last advertised
 *   date that happened by `at` (what bought those registrants); null without such a date or reading.
 * - CRM stages: `reached` = the ad's leads (by e-mail hash or Meta lead id) with a row of the stage,
 *   `judged` = the ad's leads created at least the stage's window before `at`; answered for the
 *   accounts whose folders send CRM outcomes (otherwise `stages` is empty).
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { resultRows } from '../http/pagination';
import { campaignsOfAds, readOutcomeRows } from './outcomeRows';
import type { LeadStage, QualitySource } from './quality';
import { qualitiesOf, websiteOnlyAds, type AdQualityOfCampaign, type StageWindowMs } from './qualityOf';
import { QualityHistory } from './qualityHistory';

export type { AdQualityOfCampaign } from './qualityOf';

export const DEFAULT_STAGE_WINDOW_DAYS = 7;
const DAY_MS = 86_400_000;

export interface OutcomeStoreOptions {
  /** Days after its creation a lead is judged at each CRM stage (default 7 for every stage). */
  stageWindowDays?: Partial<Record<LeadStage, number>>;
}

export function createOutcomeStore(db: Database, options: OutcomeStoreOptions = {}) {
  const stageWindowMs: StageWindowMs = (stage) =>
    (options.stageWindowDays?.[stage] ?? DEFAULT_STAGE_WINDOW_DAYS) * DAY_MS;

  /** Every ad of the account with something known at `at`, with its campaign. */
  async function adQualities(adAccountId: string, at: Date): Promise<Map<string, AdQualityOfCampaign>> {
    const rows = await readOutcomeRows(db, adAccountId, at);
    const campaignOfWebsiteAd = await campaignsOfAds(db, websiteOnlyAds(rows.leads, rows.outcomes));
    const { byAd, settledSpendAt } = qualitiesOf({ ...rows, campaignOfWebsiteAd }, at.getTime(), stageWindowMs);
    const spends = await historySpend(db, adAccountId, settledSpendAt);
    for (const [adId, spend] of spends) byAd.get(adId)!.settledSpend = spend;
    return byAd;
  }

  /** What each ad of the account had become by `at` (the engine's QualitySource). */
  const qualityAt: QualitySource['qualityAt'] = async (adAccountId, at) => {
    const byAd = await adQualities(adAccountId, at);
    return new Map([...byAd].map(([adId, { campaignId: _campaign, ...quality }]) => [adId, quality]));
  };

  /**
   * What each ad's leads had become at any moment of [fromMs, toMs), as known then (rows recorded
   * later unseen), read once for a backtest that asks at every scheduled hour.
   */
  async function history(adAccountId: string, fromMs: number, toMs: number): Promise<QualityHistory> {
    const rows = await readOutcomeRows(db, adAccountId, new Date(toMs));
    const campaignOfWebsiteAd = await campaignsOfAds(db, websiteOnlyAds([], rows.outcomes));
    const facts = { ...rows, campaignOfWebsiteAd };
    const moments = QualityHistory.settledSpendMoments(facts, fromMs, toMs);
    const spends = new Map<string, number>();
    for (const [moment, adIds] of moments) {
      const found = await historySpend(db, adAccountId, new Map(adIds.map((adId) => [adId, moment])));
      for (const [adId, spend] of found) spends.set(QualityHistory.spendKey(adId, moment), spend);
    }
    return new QualityHistory(facts, stageWindowMs, spends);
  }

  return { qualityAt, adQualities, history };
}

export type OutcomeStore = ReturnType<typeof createOutcomeStore>;

/**
 * Each ad's lifetime spend at its moment, from the metric history (cumulative cents per UTC hour):
 * the last reading at or before the moment, on its day or the day before; ads without one are absent.
 */
async function historySpend(
  db: Database,
  adAccountId: string,
  momentByAd: Map<string, number>,
): Promise<Map<string, number>> {
  const spends = new Map<string, number>();
  const byMoment = new Map<number, string[]>();
  for (const [adId, moment] of momentByAd) byMoment.set(moment, [...(byMoment.get(moment) ?? []), adId]);
  for (const [moment, adIds] of byMoment) {
    const when = new Date(moment);
    const day = when.toISOString().slice(0, 10);
    const rows = resultRows<{ ad_id: string; day: string; spend_cents: (number | null)[] | null }>(
      await db.execute(sql`select ad_id, day::text as day, spend_cents from (
          select ad_id, day, spend_cents, row_number() over (partition by ad_id order by day desc) as n
          from ad_metric_history
          where ad_account_id = ${adAccountId} and day <= ${day}::date
            and ad_id in (${sql.join(
              adIds.map((id) => sql`${id}`),
              sql`, `,
            )})
        ) as latest where n <= 2 order by ad_id, day desc`),
    );
    for (const row of rows) {
      if (spends.has(row.ad_id)) continue;
      const lastHour = row.day === day ? when.getUTCHours() : 23;
      const values = (row.spend_cents ?? []).slice(0, lastHour + 1);
      for (let h = values.length - 1; h >= 0; h -= 1) {
        const cents = values[h];
        if (cents !== null && cents !== undefined) {
          spends.set(row.ad_id, cents / 100);
          break;
        }
      }
    }
  }
  return spends;
}
