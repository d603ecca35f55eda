/**
 * Starts the hourly outcome sync (sync.ts) in processes that run background work (ROLE all or
 * worker). One process syncs per hour: the same lease row as the campaign sync's job, under its own name.
 */
import type { Config } from '../config';
import type { Database } from '../db/client';
import type { GraphClient } from '../adplatform/graphClient';
import type { WebinarPlatform } from '../webinar/index';
import type { CredentialCipher } from '../rules/credentials';
import { acquireLease, releaseLease } from '../campaigns/job';
import { errorMessage } from '../errorMessage';
import { OutcomeStore } from './store';
import { OutcomeSync } from './sync';

export const OUTCOME_SYNC_JOB = 'outcomes';
export const OUTCOME_SYNC_MINUTES = 60;

export function startOutcomeSync(
  config: Config,
  db: Database,
  graph: GraphClient,
  webinar: WebinarPlatform,
  cipher: CredentialCipher,
  log: { info(message: string): void; warn(message: string): void } = console,
): () => Promise<void> {
  if (config.role === 'api') return async () => undefined;
  const sync = new OutcomeSync({
    db,
    graph,
    demioFor: (credentials) => webinar.clientFor(credentials),
    decrypt: (stored) => cipher.decrypt(stored),
    store: new OutcomeStore(db),
    log,
  });
  const intervalMs = OUTCOME_SYNC_MINUTES * 60_000;
  let current: Promise<unknown> = Promise.resolve();
  const tick = async () => {
    if (!(await acquireLease(db, OUTCOME_SYNC_JOB, 2 * intervalMs, intervalMs - 5_000))) return;
    try {
      const report = await sync.syncAll();
      // A folder's failure is logged (a refused key is a health warning) and waits for the next hour.
      if (report.failures.length)
        log.warn(`outcomes: ${report.failures.map((f) => `${f.folderId ?? f.adAccountId}: ${f.error}`).join('; ')}`);
      await releaseLease(db, OUTCOME_SYNC_JOB, { ok: true });
    } catch (error) {
      log.warn(`outcomes: sync failed: ${errorMessage(error)}`);
      await releaseLease(db, OUTCOME_SYNC_JOB, { ok: false, error: errorMessage(error) }).catch(() => undefined);
    }
  };
  const run = () => {
    current = tick().catch((error: unknown) => log.warn(`outcomes: ${errorMessage(error)}`));
  };
  // Checked every ten minutes; the lease makes it hourly across processes, a run that threw retried sooner.
  const first = setTimeout(run, 30_000);
  const timer = setInterval(run, 10 * 60_000);
  first.unref();
  timer.unref();
  return async () => {
    clearTimeout(first);
    clearInterval(timer);
    await current;
  };
}
