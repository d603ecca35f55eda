/**
 * Starts the hourly outcome sync (sync.ts) in processes that run background work (ROLE all or
 * worker). One process syncs per period (OUTCOME_SYNC_MINUTES, default 60): the same lease row as
 * the campaign sync's job, under its own name.
 */
import type { Config } from '../config';
import type { Database } from '../db/client';
import type { WebinarPlatform } from '../webinar/index';
import type { CredentialCipher } from '../rules/credentials';
import { acquireLease, releaseLease } from '../campaigns/job';
import { errorMessage } from '../errorMessage';
import { createOutcomeStore } from './store';
import { OutcomeSync, type LeadSource } from './sync';

export const OUTCOME_SYNC_JOB = 'outcomes';

export function startOutcomeSync(
  config: Config,
  db: Database,
  graph: LeadSource,
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
    store: createOutcomeStore(db),
    log,
  });
  const intervalMs = config.outcomeSyncMinutes * 60_000;
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
  let running = false;
  const run = () => {
    // A sync that outlasts a short period (and its lease, twice that) is not joined by a second one.
    if (running) return;
    running = true;
    current = tick()
      .catch((error: unknown) => log.warn(`outcomes: ${errorMessage(error)}`))
      .finally(() => {
        running = false;
      });
  };
  // Checked every ten minutes; the lease makes it once a period across processes, a run that threw
  // retried sooner. A period shorter than that (a browser test's) is checked as often as it comes.
  const first = setTimeout(run, Math.min(30_000, intervalMs));
  const timer = setInterval(run, Math.min(10 * 60_000, intervalMs));
  first.unref();
  timer.unref();
  return async () => {
    clearTimeout(first);
    clearInterval(timer);
    await current;
  };
}
