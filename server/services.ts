/**
 * The services routes use beyond the database and tokens, decorated onto the app with their
 * types (`app.credentials`, `app.mailer`, `app.campaignSync`, `app.ruleEngine`). buildApp takes them from
 * startServices, or from a test; a service a server was built without answers 503 `{detail}`.
 */
import fp from 'fastify-plugin';
import type { CampaignSource, CampaignSync } from './campaigns/sync';
import type { RuleEngineService } from './run/requestedRuns';
import type { MetricHistoryService } from './history/service';
import { ApiError } from './http/errors';
import { mailerFromConfig, type Mailer } from './mail/mailer';
import type { JobQueueProbe } from './observability/readiness';
import type { WebinarPlatform } from './webinar/index';
import { credentialCipherFor, type CredentialCipher } from './rules/credentials';
import { type AddressPolicy, addressPolicyOf } from './alerts/addressPolicy';
import type { PushQueue } from './push/queue';
import type { MetaConnectionsService } from './connections/store';

/** What the campaign routes ask of the sync. */
export type CampaignSyncService = Pick<CampaignSync, 'syncAdAccounts' | 'refreshCampaign' | 'syncAll'>;

export interface AppServices {
  /** Outgoing mail (SMTP or the data dir's outbox). */
  mailer: Mailer;
  /** Run now, Preview and Undo of the rule engine (needs the ad-platform client). */
  ruleEngine: RuleEngineService;
  /** Sync of ad accounts and campaigns from the ad platform. */
  campaignSync: CampaignSyncService;
  /** The ad-platform client the services above were built on (the routes do not call it). */
  adPlatform: CampaignSource;
  /** Meta connections: a token's check with Graph, and the per-account clients told of a change. */
  metaConnections: MetaConnectionsService;
  /** The metric history's fill from the platform's breakdowns. */
  metricHistory: MetricHistoryService;
  /** Demio (or its simulator): clients per folder key and secret. */
  webinar?: WebinarPlatform;
  /** The rule engine's job queue, where this process runs it (ROLE all/worker): /readyz asks it. */
  jobQueue?: JobQueueProbe;
  /** Where alert webhooks may go (ALERT_WEBHOOK_HOSTS, resolved by DNS unless a test resolves). */
  webhookPolicy: AddressPolicy;
  /** Where Meta's webhook deliveries are queued for the push worker (absent: they wait for the engine's scan). */
  pushQueue?: PushQueue;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Encrypts folder credentials at rest (CREDENTIALS_KEY or the data dir's secret). */
    credentials: CredentialCipher;
    mailer: Mailer;
    ruleEngine: RuleEngineService;
    campaignSync: CampaignSyncService;
    metricHistory: MetricHistoryService;
    /** Set where this process runs the job queue. */
    jobQueue: JobQueueProbe | undefined;
    /** Demio (or its simulator), where the server started it. */
    webinar: WebinarPlatform | undefined;
    webhookPolicy: AddressPolicy;
    /** Where Meta's webhook deliveries are queued, when this server was given the queue. */
    pushQueue: PushQueue | undefined;
    metaConnections: MetaConnectionsService;
  }
}

const unavailable = (detail: string) => async (): Promise<never> => {
  throw new ApiError(503, { detail });
};

const noAdPlatform = unavailable('The ad platform is not configured on this server.');
const noRuleEngine = unavailable('The rule engine is not available on this server.');

export default fp<{ services: Partial<AppServices> }>(async (app, { services }) => {
  app.decorate('credentials', await credentialCipherFor(app.config));
  app.decorate('webinar', services.webinar);
  // Without a mailer (API tests of other areas), mail goes to the configured data dir's outbox.
  app.decorate('mailer', services.mailer ?? mailerFromConfig(app.config, (line) => app.log.info(line)));
  app.decorate(
    'campaignSync',
    services.campaignSync ?? { syncAdAccounts: noAdPlatform, refreshCampaign: noAdPlatform, syncAll: noAdPlatform },
  );
  app.decorate(
    'ruleEngine',
    services.ruleEngine ?? {
      runNow: noRuleEngine,
      preview: noRuleEngine,
      undo: noRuleEngine,
      approve: noRuleEngine,
      dismiss: noRuleEngine,
    },
  );
  app.decorate(
    'metricHistory',
    services.metricHistory ?? { backfill: noAdPlatform, fillIfEmpty: async () => undefined },
  );
  app.decorate('jobQueue', services.jobQueue);
  app.decorate('pushQueue', services.pushQueue);
  app.decorate('metaConnections', services.metaConnections ?? { check: noAdPlatform, changed: () => undefined });
  app.decorate('webhookPolicy', services.webhookPolicy ?? addressPolicyOf(app.config));
});
