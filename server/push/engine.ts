/**
 * Pushed, not polled (docs/engine.md): what an engine process does when Meta pushes — works the
 * push queue (wake.ts), keeps every account's subscriptions in step with its rules (reconcile.ts,
 * at start and whenever rules, their items or folders change, from any process), runs the rules
 * whose recheck is due (recheck.ts), and lets the scan skip the scheduled hours that would only
 * read again what Meta would have pushed (floor.ts).
 */
import type { SubscriptionClient } from '../adplatform/subscriptions';
import type { DbHandle } from '../db/client';
import type { DueRun } from '../run/dueRuns';
import { errorMessage } from '../errorMessage';
import { DATA_CHANGED_CHANNEL } from '../http/pageCache';
import { applyFloor, pruneNotifications, waitingAccounts } from './floor';
import type { PushQueue } from './queue';
import { takeDueRechecks } from './recheck';
import { reconcileAccounts } from './reconcile';
import { pushSlot, rulesScheduledAt, wakeAccount } from './wake';

export type PushTrigger = 'push' | 'recheck';

export interface PushOptions {
  queue: PushQueue;
  subscriptions: SubscriptionClient;
  /** Objects' current statuses, read when Meta tells that a status changed (GraphClient.readStatuses). */
  readStatuses?(ids: string[]): Promise<Map<string, string>>;
  /** How often due rechecks are looked for (default 30 s); 0: only when asked (tests and benches drive it). */
  recheckEveryMs?: number;
}

export interface PushWork {
  /** The due work the scan is to enqueue: the scheduled runs the floor keeps, and every alert. */
  floor(due: DueRun[]): Promise<DueRun[]>;
  /** Queues the runs whose recheck is due at `at`; answers how many rules. */
  recheck(at: Date): Promise<number>;
  /** Brings every account's subscriptions in step with its rules (one pass at a time). */
  reconcile(): Promise<void>;
  /** At each scan: notifications left waiting are queued again, old ones pruned. */
  tidy(at: Date): Promise<void>;
  stop(): Promise<void>;
}

interface PushDeps {
  dbh: DbHandle;
  now(): Date;
  log: { warn(message: string): void; error(message: string): void };
  enqueueRuns(adAccountId: string, ruleIds: number[], slot: Date, trigger: PushTrigger): Promise<void>;
  push: PushOptions;
}

/** Tables whose change may change the subscriptions an account needs. */
const RULE_TABLES = new Set(['rules', 'rule_items', 'folders', 'meta_ad_accounts']);
const RECONCILE_DEBOUNCE_MS = 300;
const DAY_MS = 86_400_000;

export async function startPushWork(deps: PushDeps): Promise<PushWork> {
  const { dbh, push, log } = deps;
  const db = dbh.db;
  const warn = (message: string) => log.warn(message);

  let reconciling: Promise<void> | null = null;
  let again = false;
  const reconcile = (): Promise<void> => {
    if (reconciling) {
      again = true;
      return reconciling;
    }
    reconciling = (async () => {
      do {
        again = false;
        await reconcileAccounts({ db, subscriptions: push.subscriptions, warn }).catch((error: unknown) =>
          log.error(`push: reconciling subscriptions failed: ${errorMessage(error)}`),
        );
      } while (again);
    })().finally(() => {
      reconciling = null;
    });
    return reconciling;
  };
  let debounce: NodeJS.Timeout | undefined;
  const stopListening = await dbh.listen(
    DATA_CHANGED_CHANNEL,
    (table) => {
      if (!RULE_TABLES.has(table)) return;
      clearTimeout(debounce);
      debounce = setTimeout(() => void reconcile(), RECONCILE_DEBOUNCE_MS);
    },
    () => undefined,
  );

  const stopWorking = await push.queue.work(async (adAccountId) => {
    await wakeAccount(
      {
        db,
        now: deps.now,
        readStatuses: push.readStatuses,
        enqueueRuns: (account, ruleIds, slot) => deps.enqueueRuns(account, ruleIds, slot, 'push'),
        warn,
      },
      adAccountId,
    );
  });

  async function recheck(at: Date): Promise<number> {
    const taken = await takeDueRechecks(db, at, (ruleIds) => rulesScheduledAt(db, ruleIds, at));
    const slot = pushSlot(at);
    const byAccount = new Map<string, number[]>();
    for (const t of taken) byAccount.set(t.adAccountId, [...(byAccount.get(t.adAccountId) ?? []), t.ruleId]);
    for (const [account, ruleIds] of byAccount) await deps.enqueueRuns(account, ruleIds, slot, 'recheck');
    return taken.length;
  }

  const every = push.recheckEveryMs ?? 30_000;
  const timer =
    every > 0 ? setInterval(() => void recheck(deps.now()).catch((e) => warn(errorMessage(e))), every) : undefined;
  timer?.unref();
  void reconcile();

  return {
    async floor(due) {
      return (await applyFloor(db, due)).kept;
    },
    recheck,
    reconcile,
    async tidy(at) {
      await push.queue.enqueue(await waitingAccounts(db, new Date(at.getTime() - 60_000)));
      await pruneNotifications(db, new Date(at.getTime() - 2 * DAY_MS));
    },
    async stop() {
      clearInterval(timer);
      clearTimeout(debounce);
      await stopWorking();
      await stopListening();
      await reconciling;
    },
  };
}
