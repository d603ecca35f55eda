/**
 * Sync from the ad platform into the database: ad accounts (`meta_ad_accounts`) and campaigns with
 * their lifetime metrics and parsed names (`campaigns`).
 *
 * - Upserts only; a sync never deletes a row, and a failed call changes nothing it covers.
 * - Each ad account is read whole (campaigns + lifetime campaign insights) before anything of it is
 *   written, so an account whose calls fail keeps what it had while the others are updated.
 * - A row carries the time its metrics were read (updated_at); an older reading never overwrites a
 *   newer one, so a slow periodic sync cannot undo a fresher one-campaign refresh.
 * - Concurrent calls of the same sync share one run.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import { DateTime } from 'luxon';
import type { Database } from '../db/client';
import { campaigns, metaAdAccounts } from '../db/schema/index';
import type { AccountScope, AdAccount, AdPlatformClient, Campaign, InsightRow } from '../adplatform/types';
import { actId } from '../adplatform/graphClient';
import { insightMetrics } from '../adplatform/insightValues';
import { parseCampaignName } from '../../shared/campaignName';
import { errorMessage } from '../errorMessage';

/**
 * What sync needs beyond the shared interface: one campaign and its lifetime insights (read with
 * the token of the ad account named, when it is known).
 */
export interface CampaignSource extends AdPlatformClient {
  getCampaign(campaignId: string, scope?: AccountScope): Promise<Campaign>;
  getCampaignInsights(campaignId: string, scope?: AccountScope): Promise<InsightRow | null>;
}

export interface SyncFailure {
  adAccountId: string;
  error: string;
}

export interface SyncReport {
  accounts: number;
  campaigns: number;
  failures: SyncFailure[];
}

export interface SyncLog {
  info(message: string): void;
  warn(message: string): void;
}

type CampaignInsert = typeof campaigns.$inferInsert;

const UPSERT_CHUNK = 500;
/** Ad accounts synced side by side (docs/decisions.md, "Ad platform"). */
const ACCOUNTS_AT_ONCE = 10;

const money = (value: number | null) => (value === null ? null : value.toFixed(2));
const ratio = (value: number | null) => (value === null ? null : value.toFixed(4));

function timestamp(value: string | undefined): Date | null {
  if (!value) return null;
  const parsed = DateTime.fromISO(value, { setZone: true });
  if (parsed.isValid) return parsed.toJSDate();
  const fallback = DateTime.fromFormat(value, "yyyy-MM-dd'T'HH:mm:ssZZZ", { setZone: true });
  return fallback.isValid ? fallback.toJSDate() : null;
}

export function campaignRow(
  adAccountId: string,
  campaign: Campaign,
  insight: InsightRow | null | undefined,
  readAt: Date,
): CampaignInsert {
  const parsed = parseCampaignName(campaign.name);
  const m = insightMetrics(insight);
  return {
    campaignId: BigInt(campaign.id),
    adAccountId,
    campaignName: campaign.name,
    status: campaign.status ?? null,
    effectiveStatus: campaign.effective_status ?? null,
    topic: parsed.topic,
    isWebinar: parsed.is_webinar,
    eventDate: parsed.event_date,
    eventTime: parsed.event_time,
    spend: m.spend.toFixed(2),
    leads: m.leads,
    websiteLeads: m.websiteLeads,
    actions: insight?.actions ?? [],
    impressions: m.impressions,
    clicks: m.clicks,
    linkClicks: m.linkClicks,
    cpl: money(m.cpl),
    ctr: insight ? ratio(m.ctr) : null,
    cpc: insight ? ratio(m.cpc) : null,
    endDate: timestamp(campaign.stop_time),
    updatedAt: readAt,
  };
}

/** Upserts ad accounts as the platform lists them (a new Meta connection's, at once). */
export async function saveAdAccounts(db: Database, accounts: AdAccount[], syncedAt: Date): Promise<void> {
  if (!accounts.length) return;
  await db
    .insert(metaAdAccounts)
    .values(
      accounts.map((a) => ({
        adAccountId: actId(a.id || a.account_id),
        accountName: a.name,
        timezoneName: a.timezone_name || 'UTC',
        currency: a.currency || 'USD',
        accountStatus: a.account_status ?? null,
        syncedAt,
      })),
    )
    .onConflictDoUpdate({
      target: metaAdAccounts.adAccountId,
      set: {
        accountName: sql`excluded.account_name`,
        timezoneName: sql`excluded.timezone_name`,
        currency: sql`excluded.currency`,
        accountStatus: sql`excluded.account_status`,
        syncedAt: sql`excluded.synced_at`,
      },
    });
}

export class CampaignSync {
  private running = new Map<string, Promise<unknown>>();
  private readonly accountListeners: ((adAccountId: string) => void)[] = [];
  private readonly syncListeners: (() => Promise<void>)[] = [];

  constructor(
    private readonly db: Database,
    private readonly client: CampaignSource,
    private readonly options: { log?: SyncLog; now?: () => Date } = {},
  ) {}

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  /** Called after each ad account's campaigns were synced (the metric history fills a new account). */
  onAccountSynced(listener: (adAccountId: string) => void): void {
    this.accountListeners.push(listener);
  }

  /** Upserts every ad account the token can see. */
  syncAdAccounts(): Promise<AdAccount[]> {
    return this.once('accounts', async () => {
      const accounts = await this.client.listAdAccounts();
      await saveAdAccounts(this.db, accounts, this.now());
      this.options.log?.info(`sync: ${accounts.length} ad accounts`);
      return accounts;
    });
  }

  /** Ad accounts, then the campaigns of each one. */
  /** Called after every whole sync, ended well or not (the platform health check). */
  onSyncFinished(listener: () => Promise<void>): void {
    this.syncListeners.push(listener);
  }

  syncAll(): Promise<SyncReport> {
    return this.once('all', async () => {
      try {
        const accounts = await this.syncAdAccounts();
        return await this.syncCampaignsOf(accounts.map((a) => actId(a.id || a.account_id)));
      } finally {
        for (const listener of this.syncListeners) await listener();
      }
    });
  }

  /** Campaigns and lifetime metrics of these ad accounts (default: every synced account). */
  async syncCampaignsOf(adAccountIds?: string[]): Promise<SyncReport> {
    const ids =
      adAccountIds ?? (await this.db.select({ id: metaAdAccounts.adAccountId }).from(metaAdAccounts)).map((r) => r.id);
    const report: SyncReport = { accounts: ids.length, campaigns: 0, failures: [] };
    // Several accounts at once: each waits on its two Graph calls (hundreds of milliseconds to
    // seconds at Graph's pace), and each account has a budget of its own.
    let next = 0;
    const syncNext = async () => {
      while (next < ids.length) {
        const adAccountId = ids[next++]!;
        try {
          // Awaited first: `+= await` would read the total before the wait and lose the others' counts.
          const synced = await this.syncAccountCampaigns(adAccountId);
          report.campaigns += synced;
          await this.recordAccountSync(adAccountId, { campaignsSyncedAt: this.now(), campaignSyncError: null });
          for (const listener of this.accountListeners) listener(adAccountId);
        } catch (error) {
          const message = errorMessage(error);
          await this.recordAccountSync(adAccountId, { campaignSyncError: message });
          report.failures.push({ adAccountId, error: message });
          this.options.log?.warn(`sync: campaigns of ${adAccountId} kept as they were: ${message}`);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(ACCOUNTS_AT_ONCE, ids.length) }, syncNext));
    // In the order the accounts were asked for, whichever finished first.
    report.failures.sort((a, b) => ids.indexOf(a.adAccountId) - ids.indexOf(b.adAccountId));
    this.options.log?.info(
      `sync: ${report.campaigns} campaigns in ${ids.length - report.failures.length} of ${ids.length} ad accounts`,
    );
    return report;
  }

  /** The account's sync state, shown on the Ad accounts screen. */
  private async recordAccountSync(
    adAccountId: string,
    state: { campaignsSyncedAt?: Date; campaignSyncError: string | null },
  ): Promise<void> {
    await this.db.update(metaAdAccounts).set(state).where(eq(metaAdAccounts.adAccountId, adAccountId));
  }

  private async syncAccountCampaigns(adAccountId: string): Promise<number> {
    const readAt = this.now();
    const [list, insights] = await Promise.all([
      this.client.listCampaigns(adAccountId),
      this.client.getInsights(adAccountId, { level: 'campaign' }),
    ]);
    const byCampaign = new Map(insights.map((row) => [row.campaign_id, row]));
    const rows = list
      .filter((c) => /^\d+$/.test(c.id))
      .map((c) => campaignRow(adAccountId, c, byCampaign.get(c.id), readAt));
    for (let i = 0; i < rows.length; i += UPSERT_CHUNK) await this.upsert(rows.slice(i, i + UPSERT_CHUNK));
    return rows.length;
  }

  /** Re-reads one campaign and its lifetime metrics. Throws the client's typed errors. */
  async refreshCampaign(campaignId: string): Promise<void> {
    const readAt = this.now();
    const stored = await this.knownAccountOf(campaignId);
    const scope = { accountId: stored };
    const [campaign, insight] = await Promise.all([
      this.client.getCampaign(campaignId, scope),
      this.client.getCampaignInsights(campaignId, scope),
    ]);
    const accountId = campaign.account_id ? actId(campaign.account_id) : stored;
    if (!accountId) throw new Error(`The ad platform did not say which ad account campaign ${campaignId} belongs to`);
    const known = await this.db
      .select({ id: metaAdAccounts.adAccountId })
      .from(metaAdAccounts)
      .where(inArray(metaAdAccounts.adAccountId, [accountId]));
    if (!known.length) await this.syncAdAccounts();
    await this.upsert([campaignRow(accountId, campaign, insight, readAt)]);
  }

  private async knownAccountOf(campaignId: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ id: campaigns.adAccountId })
      .from(campaigns)
      .where(inArray(campaigns.campaignId, [BigInt(campaignId)]));
    return row?.id;
  }

  private async upsert(rows: CampaignInsert[]): Promise<void> {
    if (!rows.length) return;
    const excluded = (column: string) => sql.raw(`excluded.${column}`);
    await this.db
      .insert(campaigns)
      .values(rows)
      .onConflictDoUpdate({
        target: campaigns.campaignId,
        set: Object.fromEntries(
          (
            [
              ['adAccountId', 'ad_account_id'],
              ['campaignName', 'campaign_name'],
              ['status', 'status'],
              ['effectiveStatus', 'effective_status'],
              ['topic', 'topic'],
              ['isWebinar', 'is_webinar'],
              ['eventDate', 'event_date'],
              ['eventTime', 'event_time'],
              ['spend', 'spend'],
              ['leads', 'leads'],
              ['websiteLeads', 'website_leads'],
              ['actions', 'actions'],
              ['impressions', 'impressions'],
              ['clicks', 'clicks'],
              ['linkClicks', 'link_clicks'],
              ['cpl', 'cpl'],
              ['ctr', 'ctr'],
              ['cpc', 'cpc'],
              ['endDate', 'end_date'],
              ['updatedAt', 'updated_at'],
            ] as const
          ).map(([key, column]) => [key, excluded(column)]),
        ),
        setWhere: sql`${campaigns.updatedAt} <= excluded.updated_at`,
      });
  }

  private once<T>(name: string, run: () => Promise<T>): Promise<T> {
    const current = this.running.get(name);
    if (current) return current as Promise<T>;
    const promise = run().finally(() => this.running.delete(name));
    this.running.set(name, promise);
    return promise;
  }
}
