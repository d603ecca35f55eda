/**
 * Long-running parts started beside the HTTP server (ad-platform and Demio simulators, sync, rule engine,
 * mail), according to the configured role. Each feature adds itself here.
 */
import type { Config } from './config';
import type { DbHandle } from './db/client';
import { mailerFromConfig } from './mail/mailer';
import { startCampaignServices } from './campaigns/startup';
import { alertDelivery, startRuleEngineServices } from './run/startInServer';
import { checkPlatformHealth } from './health/monitor';
import type { AppServices } from './services';
import { pgBossProbe } from './observability/readiness';
import { QUEUES } from './run/queue';
import { createMetricHistoryService, fillOnFirstSync } from './history/service';
import { storedDestinations } from './alerts/destinations';
import { createDeliveryQueue } from './alerts/deliveryQueue';
import { addressPolicyOf } from './alerts/addressPolicy';
import { createWebhookSender } from './alerts/webhook';
import { credentialCipherFor } from './rules/credentials';
import { startWebinarPlatform } from './webinar/index';
import { startOutcomeSync } from './outcomes/startup';
import { healthTokens } from './connections/healthTokens';
import { startPushServices } from './push/startup';

export interface RunningServices {
  services: Partial<AppServices>;
  /** Once the server listens on `port`: what needs it reachable (the simulator's webhook callback). */
  listening?(port: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startServices(config: Config, dbh: DbHandle): Promise<RunningServices> {
  const stops: (() => Promise<void>)[] = [];
  const campaigns = await startCampaignServices(config, dbh);
  stops.push(campaigns.stop);
  const webinar = await startWebinarPlatform(config, campaigns.platform, process.env, console);
  stops.push(webinar.stop);
  const mailer = mailerFromConfig(config);
  const metricHistory = createMetricHistoryService({
    db: dbh.db,
    client: campaigns.services.adPlatform,
    historyDays: config.historyDays,
    log: console,
  });
  fillOnFirstSync(campaigns.services.campaignSync, metricHistory);
  // Alerts go by mail and, queued, to the alert destinations (their URLs opened with the folder credentials' key).
  const cipher = await credentialCipherFor(config);
  // Hourly: the form leads, advertised event dates and their participants (what leads became).
  stops.push(startOutcomeSync(config, dbh.db, campaigns.services.adPlatform, webinar, cipher));
  const destinations = storedDestinations(dbh.db, cipher, config.alertWebhookUrl, config.alertMaxDestinations);
  const send = createWebhookSender({ policy: addressPolicyOf(config) });
  const deliveries = createDeliveryQueue({ dbh, destinations, send, log: console });
  stops.push(deliveries.stop);
  const alerts = alertDelivery(config, mailer, deliveries);
  const push = startPushServices(config, dbh, campaigns.platform, console);
  if (push) stops.push(push.stop);
  const engine = await startRuleEngineServices(config, dbh, campaigns.services.adPlatform, alerts, push?.options);
  if (engine.engine) stops.push(await deliveries.work());
  // Every sync checks the platform's health (each Meta connection's token); unhealthy accounts hold their rules' runs.
  const healthDeps = {
    db: dbh.db,
    client: campaigns.services.adPlatform,
    connections: healthTokens(campaigns.connections, dbh.db),
    now: () => new Date(),
    alerts,
    log: console,
  };
  campaigns.services.campaignSync.onSyncFinished(() => checkPlatformHealth(healthDeps));
  stops.push(engine.stop);
  return {
    services: {
      mailer,
      metricHistory,
      webinar,
      ...campaigns.services,
      ...engine.services,
      ...(engine.engine ? { jobQueue: pgBossProbe(engine.engine.boss, QUEUES.run) } : {}),
      ...(push ? { pushQueue: push.options.queue } : {}),
    },
    listening: push?.listening,
    stop: async () => {
      for (const stop of stops.reverse()) await stop();
    },
  };
}
