/**
 * The pulse of the attempts a process is running: every few seconds one statement renews
 * `heartbeat_at` of each of its running ledger rows. A row silent for longer than
 * RUN_SILENCE_MS belongs to a process that died (or froze): a retry may take it over
 * (ledger.ts claimRuns) and another process settles it (orphanedRuns.ts). One per process.
 */
import type { Database } from '../db/client';
import { errorMessage } from '../errorMessage';
import { createLedgerStore } from './ledger';

/** How often a process renews its running attempts. */
export const RUN_HEARTBEAT_MS = 5_000;
/** A running attempt silent this long is taken as dead: several missed beats, not one slow statement. */
export const RUN_SILENCE_MS = 20_000;

export interface RunHeartbeat {
  /** Keeps the runs' rows alive while `work` goes on. */
  during<T>(runIds: (number | null)[], work: () => Promise<T>): Promise<T>;
  stop(): void;
}

export function createRunHeartbeat(
  db: Database,
  options: { intervalMs?: number; warn?: (message: string) => void } = {},
): RunHeartbeat {
  const ledger = createLedgerStore(db);
  const holders = new Map<number, number>();
  let timer: NodeJS.Timeout | undefined;

  async function beat() {
    const ids = [...holders.keys()];
    if (!ids.length) return;
    await ledger
      .renewHeartbeats(ids)
      .catch((error: unknown) => options.warn?.(`run heartbeat: ${errorMessage(error)}`));
  }

  function hold(ids: number[]) {
    for (const id of ids) holders.set(id, (holders.get(id) ?? 0) + 1);
    if (!timer && holders.size) {
      timer = setInterval(() => void beat(), options.intervalMs ?? RUN_HEARTBEAT_MS);
      timer.unref();
    }
  }

  function release(ids: number[]) {
    for (const id of ids) {
      const left = (holders.get(id) ?? 1) - 1;
      if (left > 0) holders.set(id, left);
      else holders.delete(id);
    }
    if (!holders.size && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  }

  return {
    async during(runIds, work) {
      const ids = runIds.filter((id): id is number => id !== null);
      hold(ids);
      try {
        return await work();
      } finally {
        release(ids);
      }
    },
    stop() {
      holders.clear();
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}

/** `work` with the runs kept alive by the process's heartbeat, when it has one. */
export function keptAlive<T>(heartbeat: RunHeartbeat | undefined, runIds: (number | null)[], work: () => Promise<T>) {
  return heartbeat ? heartbeat.during(runIds, work) : work();
}
