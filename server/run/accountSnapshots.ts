/**
 * One look at an ad account per slot, shared by every rule of the account that is due then:
 * campaigns and ads with their statuses, and the lifetime ad-level insights (ONE insights call
 * per account per slot, however many rules). The first worker to need it claims the row and
 * fetches; the others (in any process) wait for it. A claim whose worker died expires (lease).
 */
import { and, eq, lt, or, sql } from 'drizzle-orm';
import type { AdPlatformClient, AttributionWindowKey, InsightRow } from '../adplatform/types';
import type { Database } from '../db/client';
import { accountSnapshots } from '../db/schema/index';
import type { AccountSnapshot } from '../judgement/evaluate';
import { isOn } from '../judgement/deliveryStatus';
import { errorMessage } from '../errorMessage';
import { recordReading, type AccountReading } from '../history/record';
import { fetchHourly } from './hourlyRead';

export interface StoredSnapshot {
  id: number;
  fetchedAt: Date;
  data: AccountSnapshot;
}

export interface SnapshotOptions {
  client: AdPlatformClient;
  leaseMs?: number;
  pollMs?: number;
  /** The reading's time in the metric history (the engine's clock). */
  now?: () => Date;
  /** Where a failure to record the metric history is told (it never fails the run). */
  warn?: (message: string) => void;
}

/** What was read, whole (paused ads included), before the snapshot keeps what is delivering. */
export type RawAccountRead = Omit<AccountReading, 'adAccountId' | 'readAt'>;

/** Keeps an account read in the metric history (server/history/); a failure is only told. */
export async function keepInHistory(
  db: Database,
  adAccountId: string,
  read: RawAccountRead,
  readAt: Date,
  warn: (message: string) => void = () => undefined,
): Promise<void> {
  await recordReading(db, { adAccountId, readAt, ...read }).catch((error: unknown) =>
    warn(`metric history of ${adAccountId} not recorded: ${errorMessage(error)}`),
  );
}

/**
 * Reads the account from the platform: every campaign and ad with its status (a run explains why
 * it left a paused ad alone, and counts the account's delivering ads for the blast-radius limit),
 * and the insights of what is delivering, each action also counted within `windows` when its
 * rules count leads in one (the same call).
 */
export async function fetchAccountSnapshot(
  client: AdPlatformClient,
  adAccountId: string,
  currency: string,
  onRead?: (read: RawAccountRead) => Promise<void>,
  windows: readonly AttributionWindowKey[] = [],
): Promise<AccountSnapshot> {
  const [{ campaigns, ads }, insights] = await Promise.all([
    client.listCampaignsWithAds(adAccountId),
    client.getInsights(adAccountId, { level: 'ad', ...(windows.length ? { attributionWindows: windows } : {}) }),
  ]);
  await onRead?.({ campaigns, ads, insights });
  const liveCampaigns = new Set(campaigns.filter(isOn).map((c) => c.id));
  const liveAds = ads.filter(isOn);
  const liveAdIds = new Set(liveAds.map((a) => a.id));
  const keep = (row: InsightRow) =>
    liveCampaigns.has(row.campaign_id) || (row.ad_id !== undefined && liveAdIds.has(row.ad_id));
  return {
    currency,
    campaigns: campaigns.map(({ id, name, status, effective_status, issues_info }) => ({
      id,
      name,
      status,
      effective_status,
      ...(issues_info?.length ? { issues_info } : {}),
    })),
    ads: ads.map(({ id, name, status, effective_status, campaign_id, adset_id, issues_info }) => ({
      id,
      name,
      status,
      effective_status,
      campaign_id,
      adset_id,
      ...(issues_info?.length ? { issues_info } : {}),
    })),
    insights: insights.filter(keep),
    ...(windows.length ? { attributionWindows: [...windows] } : {}),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The hourly delivery a snapshot is to hold: the account's time zone, and the hours looked back. */
export interface HourlyWanted {
  zone: string;
  hours: number;
}

/**
 * `client`: where accounts are read. `leaseMs`: how long a claim of a fetch holds before another
 * process may take it over; `pollMs`: how often a waiting process looks again.
 */
export function createSnapshotStore(db: Database, options: SnapshotOptions) {
  const { client } = options;
  /** Fetches under way in this process, so concurrent jobs here share one promise. */
  const inFlight = new Map<string, Promise<StoredSnapshot>>();

  /** The row's id when this process is to fetch it; null when another has it (or has done it). */
  async function claim(adAccountId: string, slot: Date, leaseUntil: Date): Promise<number | null> {
    const rows = await db
      .insert(accountSnapshots)
      .values({ adAccountId, slot, state: 'fetching', leaseUntil })
      .onConflictDoUpdate({
        target: [accountSnapshots.adAccountId, accountSnapshots.slot],
        set: { state: 'fetching', leaseUntil, error: null },
        setWhere: or(
          eq(accountSnapshots.state, 'failed'),
          and(eq(accountSnapshots.state, 'fetching'), lt(accountSnapshots.leaseUntil, sql`now()`)),
        ),
      })
      .returning({ id: accountSnapshots.id });
    return rows[0]?.id ?? null;
  }

  async function fill(
    id: number,
    adAccountId: string,
    currency: string,
    wanted: HourlyWanted | undefined,
    windows: readonly AttributionWindowKey[],
  ): Promise<StoredSnapshot> {
    try {
      const readAt = options.now?.() ?? new Date();
      const [read, hourly] = await Promise.all([
        fetchAccountSnapshot(
          client,
          adAccountId,
          currency,
          (raw) => keepInHistory(db, adAccountId, raw, readAt, options.warn),
          windows,
        ),
        wanted ? fetchHourly(client, adAccountId, wanted.zone, readAt, wanted.hours) : {},
      ]);
      const data: AccountSnapshot = { ...read, ...hourly, readAt: readAt.toISOString() };
      // The engine's clock, like every switch's created_at it is compared with (../activity/entries.ts markDone).
      const [row] = await db
        .update(accountSnapshots)
        .set({ state: 'ready', data, fetchedAt: readAt, leaseUntil: null })
        .where(eq(accountSnapshots.id, id))
        .returning({ fetchedAt: accountSnapshots.fetchedAt });
      return { id, fetchedAt: row!.fetchedAt!, data };
    } catch (error) {
      await db
        .update(accountSnapshots)
        .set({ state: 'failed', error: errorMessage(error), leaseUntil: null })
        .where(eq(accountSnapshots.id, id));
      throw error;
    }
  }

  async function obtain(
    adAccountId: string,
    currency: string,
    slot: Date,
    hourly: HourlyWanted | undefined,
    windows: readonly AttributionWindowKey[],
  ): Promise<StoredSnapshot> {
    const leaseMs = options.leaseMs ?? 2 * 60_000;
    const pollMs = options.pollMs ?? 250;
    for (;;) {
      const claimed = await claim(adAccountId, slot, new Date(Date.now() + leaseMs));
      if (claimed !== null) return fill(claimed, adAccountId, currency, hourly, windows);
      const [row] = await db
        .select()
        .from(accountSnapshots)
        .where(and(eq(accountSnapshots.adAccountId, adAccountId), eq(accountSnapshots.slot, slot)));
      if (row?.state === 'ready' && row.data)
        return { id: row.id, fetchedAt: row.fetchedAt!, data: row.data as AccountSnapshot };
      await sleep(pollMs);
    }
  }

  return {
    /**
     * The account's snapshot of the slot, fetched by the first to ask, waited for by the others.
     * `hourly` (the account's time zone and the hours the rules look back) adds the hourly delivery
     * of the days covering them (hourlyRead.ts); `windows`, the attribution windows the rules count
     * leads in.
     */
    get(
      adAccountId: string,
      currency: string,
      slot: Date,
      hourly?: HourlyWanted,
      windows: readonly AttributionWindowKey[] = [],
    ): Promise<StoredSnapshot> {
      const key = `${adAccountId}@${slot.toISOString()}`;
      let promise = inFlight.get(key);
      if (!promise) {
        promise = obtain(adAccountId, currency, slot, hourly, windows).finally(() => inFlight.delete(key));
        inFlight.set(key, promise);
      }
      return promise;
    },

    /** Snapshots are only needed while their slot's runs (and retries) go on. */
    async prune(olderThan: Date): Promise<void> {
      await db.delete(accountSnapshots).where(lt(accountSnapshots.slot, olderThan));
    },
  };
}

export type SnapshotStore = ReturnType<typeof createSnapshotStore>;
