/**
 * The outcome sync (hourly, processes with ROLE all or worker): for each ad account with a folder
 * holding Demio credentials,
 * 1. the new form leads of each ad whose lifetime insights show form leads (since the newest one
 *    stored; Graph's calls paced by the account's usage) → lead_people, e-mail SHA-256 only;
 * 2. per folder: Demio's events and their dates, matched to the dates each campaign's name
 *    advertises (server/webinar/eventMatching.ts) → campaign_events (source 'name'; dates chosen by
 *    hand are kept);
 * 3. per folder: the participants of each advertised date that has happened (SETTLE_HOURS after its
 *    start) and not yet been read, read once → lead_outcomes registered / attended (occurred at the
 *    date's start, keyed by e-mail SHA-256, source_ref the date id, ad_id the UTM naming an ad);
 * 4. the campaigns' totals (campaignTotals.ts).
 * Demio refusing a folder's key is a health warning on the account ('webinar_key', naming the
 * folders), cleared by the next read that succeeds; nothing a folder's Demio does throws the sync.
 */
import { and, desc, eq, isNotNull, isNull, lte, notInArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import {
  accountHealth,
  campaignEvents,
  campaigns,
  folders,
  leadOutcomes,
  leadPeople,
  metaAdAccounts,
} from '../db/schema/index';
import type { InsightRow, LeadRecord, InsightsQuery, LeadsQuery } from '../adplatform/types';
import { leadCount, websiteLeadCount } from '../adplatform/insightValues';
import type { DemioClient } from '../webinar/demioClient';
import { DemioAuthError } from '../webinar/errors';
import { matchEventDates, type EventDateRef } from '../webinar/eventMatching';
import type { DemioCredentials } from '../../shared/folders';
import { createHealthStore } from '../health/store';
import type { HealthCheck } from '../../shared/health';
import { errorMessage } from '../errorMessage';
import type { OutcomeStore } from './store';
import { writeCampaignOutcomes } from './campaignTotals';
import { outcomeRetentionStart } from './retention';

/** Hours after a date's start when its participants are read (Demio lists them once it has run). */
export const SETTLE_HOURS = 3;
export const WEBINAR_KEY_CHECK: HealthCheck = 'webinar_key';

export interface LeadSource {
  getInsights(accountId: string, query: InsightsQuery): Promise<InsightRow[]>;
  listLeads(adId: string, query?: LeadsQuery): Promise<LeadRecord[]>;
}

export interface OutcomeSyncDeps {
  db: Database;
  graph: LeadSource;
  demioFor(credentials: DemioCredentials): DemioClient;
  /** The folder's stored credentials opened (throws when the server's key cannot read them). */
  decrypt(stored: string): DemioCredentials;
  store: OutcomeStore;
  now?: () => Date;
  log?: { info(message: string): void; warn(message: string): void };
}

export interface OutcomeSyncReport {
  accounts: number;
  leads: number;
  participants: number;
  /** Folders whose Demio refused the key. */
  refused: number[];
  failures: { folderId?: number; adAccountId: string; error: string }[];
}

interface FolderToSync {
  id: number;
  name: string;
  adAccountId: string;
  credentials: string;
}

export class OutcomeSync {
  constructor(private readonly deps: OutcomeSyncDeps) {}

  private now() {
    return this.deps.now?.() ?? new Date();
  }

  async syncAll(): Promise<OutcomeSyncReport> {
    const rows = await this.deps.db
      .select({
        id: folders.id,
        name: folders.name,
        adAccountId: folders.adAccountId,
        credentials: folders.demioCredentials,
      })
      .from(folders)
      .where(and(eq(folders.isDeleted, false), isNotNull(folders.demioCredentials)))
      .orderBy(folders.id);
    const byAccount = new Map<string, FolderToSync[]>();
    for (const r of rows)
      byAccount.set(r.adAccountId, [...(byAccount.get(r.adAccountId) ?? []), { ...r, credentials: r.credentials! }]);
    const report: OutcomeSyncReport = {
      accounts: byAccount.size,
      leads: 0,
      participants: 0,
      refused: [],
      failures: [],
    };
    for (const [adAccountId, accountFolders] of byAccount) await this.syncAccount(adAccountId, accountFolders, report);
    this.deps.log?.info(
      `outcomes: ${report.leads} new leads, ${report.participants} participants in ${report.accounts} ad accounts`,
    );
    return report;
  }

  private async syncAccount(adAccountId: string, accountFolders: FolderToSync[], report: OutcomeSyncReport) {
    try {
      report.leads += await this.syncLeads(adAccountId);
    } catch (error) {
      report.failures.push({ adAccountId, error: errorMessage(error) });
      this.deps.log?.warn(`outcomes: leads of ${adAccountId} not read: ${errorMessage(error)}`);
    }
    const refused: FolderToSync[] = [];
    let succeeded = false;
    for (const folder of accountFolders) {
      try {
        const client = this.deps.demioFor(this.deps.decrypt(folder.credentials));
        await this.syncEventDates(folder, client);
        report.participants += await this.syncParticipants(folder, client);
        succeeded = true;
      } catch (error) {
        if (error instanceof DemioAuthError) {
          refused.push(folder);
          report.refused.push(folder.id);
        }
        report.failures.push({ folderId: folder.id, adAccountId, error: errorMessage(error) });
        this.deps.log?.warn(`outcomes: Demio of folder ${folder.id} not read: ${errorMessage(error)}`);
      }
    }
    await this.recordKeyHealth(adAccountId, refused, succeeded);
    try {
      await writeCampaignOutcomes(this.deps.db, this.deps.store, adAccountId, this.now());
    } catch (error) {
      report.failures.push({ adAccountId, error: errorMessage(error) });
    }
  }

  /** A refused key is a warning on the account naming its folders; a read that succeeds clears it. */
  private async recordKeyHealth(adAccountId: string, refused: FolderToSync[], succeeded: boolean) {
    const at = this.now();
    const health = createHealthStore(this.deps.db);
    if (refused.length) {
      const names = refused.map((f) => `“${f.name}”`).join(', ');
      await health.recordCheck(
        adAccountId,
        WEBINAR_KEY_CHECK,
        'warning',
        `Demio refused the webinar API key of ${names}: check the folder’s key and secret`,
        at,
      );
      return;
    }
    if (!succeeded) return;
    const [existing] = await this.deps.db
      .select({ state: accountHealth.state })
      .from(accountHealth)
      .where(and(eq(accountHealth.adAccountId, adAccountId), eq(accountHealth.check, WEBINAR_KEY_CHECK)));
    if (existing && existing.state !== 'ok') await health.recordCheck(adAccountId, WEBINAR_KEY_CHECK, 'ok', '', at);
  }

  /** New form leads of the ads whose insights show form leads. */
  private async syncLeads(adAccountId: string): Promise<number> {
    const { db, graph } = this.deps;
    const rows = await graph.getInsights(adAccountId, { level: 'ad' });
    const formAds = rows.filter((r) => r.ad_id && leadCount(r.actions) - (websiteLeadCount(r.actions) ?? 0) > 0);
    // Leads past the retention are not read again after the pruning removed them (retention.ts).
    const kept = outcomeRetentionStart(this.now());
    let added = 0;
    for (const row of formAds) {
      const adId = row.ad_id!;
      const [newest] = await db
        .select({ at: leadPeople.createdTime })
        .from(leadPeople)
        .where(and(eq(leadPeople.adAccountId, adAccountId), eq(leadPeople.adId, adId)))
        .orderBy(desc(leadPeople.createdTime))
        .limit(1);
      const since = newest && newest.at > kept ? newest.at : kept;
      const leads = (await graph.listLeads(adId, { since, accountId: adAccountId }))
        .map((lead) => ({ lead, createdTime: new Date(lead.created_time.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')) }))
        .filter(({ createdTime }) => createdTime >= kept);
      if (!leads.length) continue;
      const inserted = await db
        .insert(leadPeople)
        .values(
          leads.map(({ lead, createdTime }) => ({
            leadId: lead.id,
            adAccountId,
            adId: lead.ad_id || adId,
            campaignId: row.campaign_id,
            formId: lead.form_id ?? null,
            emailSha256: lead.email_sha256,
            createdTime,
          })),
        )
        .onConflictDoNothing()
        .returning({ id: leadPeople.leadId });
      added += inserted.length;
    }
    return added;
  }

  /** The Demio dates each campaign's name advertises; rows no longer matched go. */
  private async syncEventDates(folder: FolderToSync, client: DemioClient): Promise<void> {
    const { db } = this.deps;
    const summaries = await client.listEvents();
    const dates: EventDateRef[] = [];
    for (const summary of summaries) {
      const event = await client.getEvent(summary.id);
      for (const d of event.dates ?? [])
        dates.push({ eventId: event.id, eventName: event.name, dateId: d.date_id, timestamp: d.timestamp });
    }
    const [account] = await db
      .select({ zone: metaAdAccounts.timezoneName })
      .from(metaAdAccounts)
      .where(eq(metaAdAccounts.adAccountId, folder.adAccountId));
    const zone = account?.zone || 'UTC';
    // Dates past the retention are not recorded again after the pruning removed them (retention.ts).
    const kept = outcomeRetentionStart(this.now()).getTime();
    const list = await db
      .select({ id: campaigns.campaignId, name: campaigns.campaignName })
      .from(campaigns)
      .where(eq(campaigns.adAccountId, folder.adAccountId));
    for (const campaign of list) {
      const campaignId = campaign.id.toString();
      const matched = matchEventDates({ name: campaign.name }, zone, dates)
        .advertised.flatMap((a) => a.matches)
        .filter((m) => m.timestamp * 1000 >= kept);
      if (matched.length)
        await db
          .insert(campaignEvents)
          .values(
            matched.map((m) => ({
              folderId: folder.id,
              adAccountId: folder.adAccountId,
              campaignId,
              eventId: m.eventId,
              dateId: m.dateId,
              startsAt: new Date(m.timestamp * 1000),
              source: 'name',
            })),
          )
          .onConflictDoUpdate({
            target: [campaignEvents.folderId, campaignEvents.campaignId, campaignEvents.dateId],
            set: { startsAt: sql`excluded.starts_at`, eventId: sql`excluded.event_id`, updatedAt: sql`now()` },
          });
      await db.delete(campaignEvents).where(
        and(
          eq(campaignEvents.folderId, folder.id),
          eq(campaignEvents.campaignId, campaignId),
          eq(campaignEvents.source, 'name'),
          matched.length
            ? notInArray(
                campaignEvents.dateId,
                matched.map((m) => m.dateId),
              )
            : sql`true`,
        ),
      );
    }
  }

  /** Participants of the folder's advertised dates that have happened and were not read yet, once. */
  private async syncParticipants(folder: FolderToSync, client: DemioClient): Promise<number> {
    const { db } = this.deps;
    const settled = new Date(this.now().getTime() - SETTLE_HOURS * 3_600_000);
    const due = await db
      .selectDistinct({ dateId: campaignEvents.dateId, startsAt: campaignEvents.startsAt })
      .from(campaignEvents)
      .where(
        and(
          eq(campaignEvents.folderId, folder.id),
          isNull(campaignEvents.participantsReadAt),
          lte(campaignEvents.startsAt, settled),
        ),
      );
    let read = 0;
    for (const { dateId, startsAt } of due) {
      const participants = await client.listParticipants(dateId);
      const rows = participants.flatMap((p) => {
        if (!p.email_sha256) return [];
        const utmAd = p.utm.utm_content?.trim();
        const base = {
          folderId: folder.id,
          leadKey: p.email_sha256,
          occurredAt: startsAt,
          source: 'demio',
          sourceRef: String(dateId),
          adId: utmAd && /^\d+$/.test(utmAd) ? utmAd : null,
        };
        return [{ ...base, kind: 'registered' }, ...(p.attended ? [{ ...base, kind: 'attended' }] : [])];
      });
      for (let i = 0; i < rows.length; i += 500)
        await db
          .insert(leadOutcomes)
          .values(rows.slice(i, i + 500))
          .onConflictDoNothing();
      await db
        .update(campaignEvents)
        .set({ participantsReadAt: this.now() })
        .where(and(eq(campaignEvents.folderId, folder.id), eq(campaignEvents.dateId, dateId)));
      read += participants.length;
    }
    return read;
  }
}
