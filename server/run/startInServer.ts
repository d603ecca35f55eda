/**
 * The rule engine in a server process: the Run now / Preview / Undo service and the sweep that
 * settles runs a dead process left (orphanedRuns.ts) in every role, and the scheduler + workers
 * (pg-boss) where background work runs (ROLE all or worker). One run heartbeat serves them all.
 */
import type { AdPlatformClient } from '../adplatform/types';
import type { Config } from '../config';
import type { DbHandle } from '../db/client';
import { mailerFromConfig, type Mailer } from '../mail/mailer';
import { consoleLog, startRuleEngine, type RuleEngine } from './startInWorker';
import { createRuleEngineService, type RuleEngineService } from './requestedRuns';
import type { BlastLimits } from '../judgement/blastRadius';
import type { HeldAlerts } from './pipeline/context';
import type { AlertWebhooks } from '../alerts/engineWebhooks';
import { startOrphanSweep } from './orphanedRuns';
import { createRunHeartbeat } from './runHeartbeat';
import { createSnapshotStore } from './accountSnapshots';
import { createOutcomeStore } from '../outcomes/store';
import type { PushOptions } from '../push/engine';

/**
 * Alert digests go to ALERT_EMAILS through the configured mailer; with no recipients set they are
 * written to the outbox (addressed to the admin), like every other mail of a dev setup. A folder with
 * recipients of its own (set in the folder dialog) has its rules' alerts mailed to them instead. Every alert
 * also goes to its webhook destinations, through their delivery queue (server/alerts/deliveryQueue.ts).
 */
export function alertDelivery(config: Config, mailer: Mailer, webhooks: AlertWebhooks): HeldAlerts {
  const sender = config.mailFrom;
  // A folder's own recipients are mailed through the configured mailer (SMTP_URL, else the outbox).
  const base = { publicUrl: config.publicUrl, sender, webhooks, folderMailer: mailer };
  if (config.alertEmails.length) return { ...base, mailer, recipients: config.alertEmails };
  const outbox = mailerFromConfig({ mailFrom: config.mailFrom, dataDir: config.dataDir }); // no smtpUrl: the outbox
  return { ...base, mailer: outbox, recipients: [config.adminEmail] };
}

/** The blast-radius limits of the server's settings. */
export const limitsOf = (config: Config): BlastLimits => ({
  maxShare: config.engineMaxShare,
  maxActions: config.engineMaxActions,
});

export async function startRuleEngineServices(
  config: Config,
  dbh: DbHandle,
  client: AdPlatformClient,
  alerts: HeldAlerts,
  push?: PushOptions,
): Promise<{ services: { ruleEngine: RuleEngineService }; engine?: RuleEngine; stop(): Promise<void> }> {
  const limits = limitsOf(config);
  const heartbeat = createRunHeartbeat(dbh.db, { warn: (m) => consoleLog.warn(m) });
  // What the leads became (webinar show-ups, CRM stages), for the rule tasks that judge it.
  const quality = createOutcomeStore(dbh.db);
  const ruleEngine = createRuleEngineService({ db: dbh.db, client, limits, alerts, heartbeat, quality });
  const sweep = startOrphanSweep({
    db: dbh.db,
    client,
    snapshots: createSnapshotStore(dbh.db, { client }),
    log: consoleLog,
    now: () => new Date(),
    heartbeat,
  });
  const engine =
    config.role === 'api'
      ? undefined
      : await startRuleEngine({
          dbh,
          client,
          alerts,
          limits,
          runHistoryDays: config.runHistoryDays,
          historyDays: config.historyDays,
          log: consoleLog,
          heartbeat,
          quality,
          push,
        });
  return {
    services: { ruleEngine },
    engine,
    stop: async () => {
      await sweep.stop();
      await engine?.stop();
      heartbeat.stop();
    },
  };
}
