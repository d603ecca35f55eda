/**
 * The outcome store's QualitySource: what each ad's leads had become at a moment, read from the
 * stored rows as they were known then (lead_people created ≤ at, lead_outcomes occurred ≤ at,
 * campaign_events starts_at ≤ at counting as happened). Docs: docs/architecture.md, "Lead outcomes".
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
import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { adHistoryNames, campaignEvents, folders, leadOutcomes, leadPeople } from '../db/schema/index';
import { resultRows } from '../http/pagination';
import { LEAD_STAGES, type AdQuality, type LeadStage, type QualityByAd, type QualitySource } from './quality';

export const DEFAULT_STAGE_WINDOW_DAYS = 7;
const DAY_MS = 86_400_000;

export interface OutcomeStoreOptions {
  /** Days after its creation a lead is judged at each CRM stage (default 7 for every stage). */
  stageWindowDays?: Partial<Record<LeadStage, number>>;
}

/** An ad's quality with the campaign it belongs to (the campaigns list sums them). */
export interface AdQualityOfCampaign extends AdQuality {
  campaignId: string | null;
}

interface LeadRow {
  leadId: string;
  adId: string;
  campaignId: string;
  email: string | null;
  created: number;
}

export class OutcomeStore implements QualitySource {
  constructor(
    private readonly db: Database,
    private readonly options: OutcomeStoreOptions = {},
  ) {}

  async qualityAt(adAccountId: string, at: Date): Promise<QualityByAd> {
    const byAd = await this.adQualities(adAccountId, at);
    return new Map([...byAd].map(([adId, { campaignId: _campaign, ...quality }]) => [adId, quality]));
  }

  /** Every ad of the account with something known at `at`, with its campaign. */
  async adQualities(adAccountId: string, at: Date): Promise<Map<string, AdQualityOfCampaign>> {
    const folderIds = (
      await this.db.select({ id: folders.id }).from(folders).where(eq(folders.adAccountId, adAccountId))
    ).map((f) => f.id);
    const [leadRows, eventRows, outcomeRows] = await Promise.all([
      this.db
        .select()
        .from(leadPeople)
        .where(and(eq(leadPeople.adAccountId, adAccountId), lte(leadPeople.createdTime, at))),
      this.db
        .selectDistinct({
          campaignId: campaignEvents.campaignId,
          dateId: campaignEvents.dateId,
          startsAt: campaignEvents.startsAt,
        })
        .from(campaignEvents)
        .where(eq(campaignEvents.adAccountId, adAccountId)),
      folderIds.length
        ? this.db
            .select()
            .from(leadOutcomes)
            .where(and(inArray(leadOutcomes.folderId, folderIds), lte(leadOutcomes.occurredAt, at)))
        : Promise.resolve([]),
    ]);
    const leads: LeadRow[] = leadRows.map((l) => ({
      leadId: l.leadId,
      adId: l.adId,
      campaignId: l.campaignId,
      email: l.emailSha256,
      created: l.createdTime.getTime(),
    }));
    const now = at.getTime();

    // Dates by campaign; Demio facts by date (source_ref is the date id) and CRM facts by lead key.
    const datesOf = new Map<string, { dateId: string; startsAt: number }[]>();
    for (const e of eventRows)
      datesOf.set(e.campaignId, [
        ...(datesOf.get(e.campaignId) ?? []),
        { dateId: String(e.dateId), startsAt: e.startsAt.getTime() },
      ]);
    const registered = new Map<string, Set<string>>();
    const attended = new Map<string, Set<string>>();
    const websiteByAd = new Map<string, { email: string; dateId: string }[]>();
    const stagesByKey = new Map<string, Set<string>>();
    for (const o of outcomeRows) {
      if (o.source === 'demio') {
        const into = o.kind === 'attended' ? attended : o.kind === 'registered' ? registered : undefined;
        if (!into) continue;
        into.set(o.sourceRef, (into.get(o.sourceRef) ?? new Set()).add(o.leadKey));
        if (o.kind === 'registered' && o.adId)
          websiteByAd.set(o.adId, [...(websiteByAd.get(o.adId) ?? []), { email: o.leadKey, dateId: o.sourceRef }]);
      } else if (o.source === 'crm') {
        stagesByKey.set(o.leadKey, (stagesByKey.get(o.leadKey) ?? new Set()).add(o.kind));
      }
    }
    // Stages are answered for the folders that send CRM outcomes at all (none reached yet is still 0 of N).
    const hasCrm = stagesByKey.size > 0 || (await this.sendsCrm(folderIds));

    const leadsByAd = new Map<string, LeadRow[]>();
    for (const lead of leads) leadsByAd.set(lead.adId, [...(leadsByAd.get(lead.adId) ?? []), lead]);
    const campaignOfAd = new Map(leads.map((l) => [l.adId, l.campaignId]));
    // A person who left leads on two ads of one campaign is the first one's.
    const firstLead = new Map<string, LeadRow>();
    for (const lead of leads) {
      const key = `${lead.campaignId}|${lead.email}`;
      const first = firstLead.get(key);
      if (lead.email && (!first || lead.created < first.created)) firstLead.set(key, lead);
    }
    const websiteOnly = [...websiteByAd.keys()].filter((adId) => !campaignOfAd.has(adId));
    if (websiteOnly.length) {
      const named = await this.db
        .select({ adId: adHistoryNames.adId, campaignId: adHistoryNames.campaignId })
        .from(adHistoryNames)
        .where(inArray(adHistoryNames.adId, websiteOnly));
      for (const n of named) campaignOfAd.set(n.adId, n.campaignId);
    }

    const result = new Map<string, AdQualityOfCampaign>();
    const spendAt = new Map<string, number>();
    for (const adId of new Set([...leadsByAd.keys(), ...websiteByAd.keys()])) {
      const campaignId = campaignOfAd.get(adId) ?? null;
      const dates = (campaignId ? datesOf.get(campaignId) : undefined) ?? [];
      const happened = dates.filter((d) => d.startsAt <= now);
      const upcoming = dates.filter((d) => d.startsAt > now).sort((a, b) => a.startsAt - b.startsAt);
      const own = leadsByAd.get(adId) ?? [];
      const ownEmails = new Set(own.flatMap((l) => (l.email ? [l.email] : [])));
      const dateIds = new Set(happened.map((d) => d.dateId));
      const people = new Set<string>();
      for (const email of ownEmails)
        if (
          firstLead.get(`${campaignId}|${email}`)?.adId === adId &&
          happened.some((d) => registered.get(d.dateId)?.has(email))
        )
          people.add(email);
      for (const w of websiteByAd.get(adId) ?? [])
        if (dateIds.has(w.dateId) && !ownEmails.has(w.email)) people.add(w.email);
      const attendees = [...people].filter((email) => happened.some((d) => attended.get(d.dateId)?.has(email)));
      const lastHappened = happened.length ? Math.max(...happened.map((d) => d.startsAt)) : null;
      if (lastHappened !== null) spendAt.set(adId, lastHappened);
      result.set(adId, {
        campaignId,
        registrations: people.size,
        settledRegistrations: people.size,
        attendees: attendees.length,
        eventsHappened: happened.length,
        nextEventAt: upcoming[0] ? new Date(upcoming[0].startsAt).toISOString() : null,
        settledSpend: null,
        stages: hasCrm ? this.stagesOf(own, stagesByKey, now) : {},
      });
    }
    const spends = await historySpend(this.db, adAccountId, spendAt);
    for (const [adId, spend] of spends) result.get(adId)!.settledSpend = spend;
    return result;
  }

  private async sendsCrm(folderIds: number[]): Promise<boolean> {
    if (!folderIds.length) return false;
    const [row] = await this.db
      .select({ id: leadOutcomes.id })
      .from(leadOutcomes)
      .where(and(inArray(leadOutcomes.folderId, folderIds), eq(leadOutcomes.source, 'crm')))
      .limit(1);
    return row !== undefined;
  }

  private stagesOf(own: LeadRow[], stagesByKey: Map<string, Set<string>>, now: number): AdQuality['stages'] {
    const stages: AdQuality['stages'] = {};
    for (const stage of LEAD_STAGES) {
      const windowMs = (this.options.stageWindowDays?.[stage] ?? DEFAULT_STAGE_WINDOW_DAYS) * DAY_MS;
      const reached = own.filter(
        (l) => stagesByKey.get(l.leadId)?.has(stage) || (l.email !== null && stagesByKey.get(l.email)?.has(stage)),
      ).length;
      stages[stage] = { reached, judged: own.filter((l) => l.created <= now - windowMs).length };
    }
    return stages;
  }
}

/**
 * Each ad's lifetime spend at its moment, from the metric history (cumulative cents per UTC hour):
 * the last reading at or before the moment, on its day or the day before; ads without one are absent.
 */
export async function historySpend(
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
