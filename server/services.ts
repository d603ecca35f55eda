/**
 * Services the routes use beyond the database and tokens. Each feature adds its own field;
 * tests pass their own instances to buildApp.
 */
import type { Mailer } from './mail/mailer';
import type { RuleEngineService } from './engine/service';
import type { GraphClient } from './adplatform/graphClient';
import type { CampaignSync } from './campaigns/sync';
import type { JobQueueProbe } from './observability/readiness';

export interface AppServices {
  [name: string]: unknown;
  /** Outgoing mail (SMTP or the data dir's outbox). */
  mailer: Mailer;
  /** Run now, Preview and Undo of the rule engine (needs the ad-platform client). */
  ruleEngine?: RuleEngineService;
  /** The ad-platform client (Meta's Graph API or the simulator); implements AdPlatformClient. */
  adPlatform?: GraphClient;
  /** Sync of ad accounts and campaigns from the ad platform. */
  campaignSync?: CampaignSync;
  /** The rule engine's job queue, where this process runs it (ROLE all/worker): /readyz asks it. */
  jobQueue?: JobQueueProbe;
}
