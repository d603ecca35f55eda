/**
 * The metric history's service: filling an account from the platform's breakdowns on demand, and
 * once, in the background, for an account synced for the first time (no reading kept yet).
 */
import { eq } from 'drizzle-orm';
import type { Ad, AdPlatformClient } from '../adplatform/types';
import type { BudgetObject } from '../judgement/budgets/types';
import type { Database } from '../db/client';
import { metaAdAccounts } from '../db/schema/index';
import { errorMessage } from '../errorMessage';
import { notFound } from '../http/errors';
import { backfillHistory, type BackfillReport } from './backfill';
import { historyCoverage } from './store';

export interface MetricHistoryService {
  /** Fills the account's last HISTORY_DAYS days; hours already read live keep their readings. */
  backfill(adAccountId: string): Promise<BackfillReport>;
  /** Starts a backfill when the account holds no reading yet (first sync); never throws. */
  fillIfEmpty(adAccountId: string): Promise<void>;
  /**
   * What the history does not keep, read from the platform now: the account's ad sets' and
   * campaigns' budgets and its ads (with their ad sets). A backtest of a budget rule starts from it.
   */
  platformNow?(adAccountId: string): Promise<{ budgets: BudgetObject[]; ads: Ad[] }>;
}

/**
 * An account's first sync fills its history from the platform's breakdowns (its campaign sync tells
 * when), one account at a time: an agency's first sync would otherwise send four large reads per
 * account at once, and with the built-in simulator keep the people opening the app waiting.
 */
export function fillOnFirstSync(
  sync: { onAccountSynced(listener: (adAccountId: string) => void): void },
  history: Pick<MetricHistoryService, 'fillIfEmpty'>,
): void {
  let queue = Promise.resolve();
  sync.onAccountSynced((id) => {
    queue = queue.then(() => history.fillIfEmpty(id));
  });
}

export function createMetricHistoryService(deps: {
  db: Database;
  client: AdPlatformClient;
  historyDays: number;
  now?: () => Date;
  log?: { info(message: string): void; warn(message: string): void };
}): MetricHistoryService {
  const { db } = deps;
  const filling = new Map<string, Promise<BackfillReport>>();

  const backfill = (adAccountId: string) => {
    let running = filling.get(adAccountId);
    if (!running) {
      running = (async () => {
        const [account] = await db
          .select({ timezone: metaAdAccounts.timezoneName })
          .from(metaAdAccounts)
          .where(eq(metaAdAccounts.adAccountId, adAccountId));
        if (!account) throw notFound();
        const report = await backfillHistory(db, deps.client, {
          adAccountId,
          timezone: account.timezone,
          days: deps.historyDays,
          now: deps.now?.() ?? new Date(),
        });
        deps.log?.info(`history: ${adAccountId} filled: ${report.readings} readings of ${report.ads} ads`);
        return report;
      })().finally(() => filling.delete(adAccountId));
      filling.set(adAccountId, running);
    }
    return running;
  };

  return {
    backfill,
    async platformNow(adAccountId) {
      if (!deps.client.listBudgets) throw new Error('This ad platform client cannot read budgets.');
      const [budgets, ads] = await Promise.all([
        deps.client.listBudgets(adAccountId),
        deps.client.listAds(adAccountId),
      ]);
      return { budgets, ads };
    },
    async fillIfEmpty(adAccountId) {
      try {
        if (filling.has(adAccountId) || (await historyCoverage(db, adAccountId)).readings) return;
        await backfill(adAccountId);
      } catch (error) {
        deps.log?.warn(`history: ${adAccountId} not filled: ${errorMessage(error)}`);
      }
    },
  };
}
