/**
 * The Graph API simulator, in process: `startSimulator()` builds a seeded world, serves it over
 * HTTP on a port (0 = any free one) and hands back the controls tests use — the clock, the fault
 * switches, the latency profile, the scenario ids, and each object's status and its metrics as
 * reported and as they will settle.
 */
import { SimClock } from './clock';
import { GraphHandler, type WriteRecord } from './graph';
import { SimulatorServer, type AccountCallCount, type LoggedRequest } from './http';
import { LatencySwitch, type LatencyProfileName } from './latency';
import { inspect, truthOf, type Truth } from './truth';
import type { FaultSpec } from './faults';
import type { TokenRegistry, TokenRequest } from './tokens';
import { addScenarios, SCENARIO_NAMES, type ScenarioName } from './scenarios';
import { optIn } from './breakdownOptIn';
import { pauseByMeta, type MetaPauseReason } from './metaPause';
import { World, type ScenarioObjects } from './world';
import { CrossingWatch } from './crossings';
import type { SimSubscription } from './subscriptions';
import type { WebhookDelivery, WebhookSettings } from './webhooks';
import type { LimitErrors } from './writeLimits';

/** What the simulated world is made of: the same settings give the same world. */
export interface WorldSettings {
  seed?: number;
  /** Simulated time at start (default: now). */
  start?: Date | string | number;
  /** Simulated milliseconds per real millisecond (default 1; 0 freezes the clock for tests). */
  speed?: number;
  /** Named scenarios to add to the first ad account (default: all). */
  scenarios?: readonly ScenarioName[];
  accounts?: number;
  campaignsPerAccount?: number;
  adsPerCampaign?: number;
}

/** The world and its clock from the settings (the Demio simulator builds the same one when alone). */
export function simulatedWorld(settings: WorldSettings): { world: World; clock: SimClock } {
  const start = settings.start === undefined ? Date.now() : new Date(settings.start).getTime();
  const world = new World({
    seed: settings.seed ?? 1,
    start,
    accounts: settings.accounts,
    campaignsPerAccount: settings.campaignsPerAccount,
    adsPerCampaign: settings.adsPerCampaign,
  });
  addScenarios(world, settings.scenarios ?? SCENARIO_NAMES, start);
  return { world, clock: new SimClock(start, settings.speed ?? 1) };
}

export interface SimulatorOptions extends WorldSettings {
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** When set, only this access token is accepted. */
  accessToken?: string;
  /** Answer an expired API version as the oldest live one with Graph's warning, instead of refusing it (#2635). */
  autoUpgrade?: boolean;
  /** An app created before v27.0 (false) keeps the features v27.0 retires for new apps until v28.0 (retiredFeatures.ts). */
  newApp?: boolean;
  /** Calls per ad account in 5 minutes that count as 100 % usage (then 80004 refusals). */
  accountQuota?: number;
  /** Calls over all accounts in 5 minutes that count as 100 % app usage (default 10 × accountQuota). */
  appQuota?: number;
  /** How long answers take: 'off' (default) or Graph's pace, 'meta' (latency.ts). */
  latency?: LatencyProfileName;
}

export interface Simulator {
  /** Base URL without the version, e.g. http://127.0.0.1:40123 — the client's META_GRAPH_URL. */
  url: string;
  world: World;
  clock: SimClock;
  /** Every request received (most recent 10,000). */
  requests: LoggedRequest[];
  /** Reads, writes and refused calls per ad account (digits) since the start. */
  accountCalls: Map<string, AccountCallCount>;
  /** Every write that took effect (`at` simulated, `receivedAt` real time). */
  writes: WriteRecord[];
  /** The writes Meta's limits refused (writeLimits.ts): budget changes, mutations per second, both. */
  limitErrors(): LimitErrors & { limit_errors: number };
  addFault(fault: FaultSpec): void;
  clearFaults(): void;
  scenario(name: ScenarioName): ScenarioObjects;
  /** An ad's (or campaign's, ad set's, account's) current status and lifetime metrics: `lifetime` as insights
   * report them now, `settled` as they will be once every late lead and every day's settling has arrived. */
  inspect(id: string): {
    status: string;
    effective_status?: string;
    lifetime: Record<string, unknown>;
    settled: Record<string, unknown>;
  } & Record<string, unknown>;
  /** Reported and settled metrics of an object at a moment (default now), over its life or days [since, until]. */
  truth(id: string, at?: Date | string | number, days?: { since?: string; until?: string }): Truth;
  /** System-user tokens (tokens.ts): revoke, change reach or expiry, list. */
  tokens: TokenRegistry;
  /** Issues a system-user token now (simulated time) and answers it. */
  issueToken(request?: TokenRequest): string;
  /** Opts an ad account into breakdowns that answer no rows without an opt-in (breakdownOptIn.ts). */
  optIn(accountId: string, breakdowns: readonly string[]): void;
  /** Meta pauses a campaign, ad set or ad itself, now (metaPause.ts). */
  pauseByMeta(id: string, reason: MetaPauseReason): void;
  /** The latency profile answers are held by; `setLatency('meta')` switches to Graph's pace. */
  setLatency(profile: LatencyProfileName): void;
  /** Meta's ads webhooks: the app's callback, what was delivered to it, the ad accounts' subscriptions. */
  webhooks: SimulatorWebhooks;
  advanceHours(hours: number): void;
  close(): Promise<void>;
}

export interface SimulatorWebhooks {
  /** Takes the callback after the hub.challenge handshake (loopback only); rejects when it fails. */
  configure(settings: WebhookSettings): Promise<void>;
  readonly deliveries: readonly WebhookDelivery[];
  /** Sends a kept delivery again, as Meta redelivers; false when there is no such delivery. */
  resend(id: number): boolean;
  subscriptions(accountId?: string): SimSubscription[];
  /** Resolves once the subscriptions were looked at for the clock's moment and every delivery was answered. */
  settled(): Promise<void>;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const { world, clock } = simulatedWorld(options);
  const graph = new GraphHandler(world, clock);
  const server = new SimulatorServer(graph, world, clock, {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    accessToken: options.accessToken,
    autoUpgrade: options.autoUpgrade,
    newApp: options.newApp,
    accountQuota: options.accountQuota ?? 5000,
    appQuota: options.appQuota,
    latency: new LatencySwitch(options.latency ?? 'off', options.seed ?? 1),
  });
  const url = await server.listen();
  const crossings = new CrossingWatch(world, clock, graph.subscriptions, graph.webhooks);
  return {
    url,
    world,
    clock,
    requests: server.requests,
    accountCalls: server.meter.accountCalls,
    writes: graph.writes,
    limitErrors: () => ({ ...world.limits.errors, limit_errors: world.limits.total }),
    addFault: (fault) => server.faults.add(fault),
    clearFaults: () => server.faults.clear(),
    scenario(name) {
      const found = world.scenarios.get(name);
      if (!found)
        throw new Error(`Scenario ${name} was not started (scenarios: ${[...world.scenarios.keys()].join(', ')})`);
      return found;
    },
    inspect(id) {
      const found = inspect(world, clock.now(), id);
      if (!found) throw new Error(`The simulator has no object ${id}`);
      return found as ReturnType<Simulator['inspect']>;
    },
    truth(id, at, days) {
      const found = truthOf(world, id, at === undefined ? clock.now() : new Date(at).getTime(), days);
      if (!found) throw new Error(`The simulator has no object ${id}`);
      return found;
    },
    tokens: server.tokens,
    issueToken: (request = {}) => server.tokens.issue(request, clock.now()).token,
    optIn: (accountId, breakdowns) => void optIn(world, accountId, breakdowns),
    pauseByMeta: (id, reason) => void pauseByMeta(world, id, reason, clock.now()),
    setLatency(profile) {
      server.latency.profile = profile;
    },
    webhooks: {
      configure: (settings) => graph.webhooks.configure(settings),
      deliveries: graph.webhooks.deliveries,
      resend: (id) => graph.webhooks.resend(id),
      subscriptions: (accountId) => graph.subscriptions.list(accountId?.replace(/^act_/, '')),
      settled: async () => {
        await crossings.check();
        await crossings.idle();
      },
    },
    advanceHours: (hours) => clock.advance(hours * 3_600_000),
    close: async () => {
      crossings.stop();
      await graph.webhooks.idle();
      await server.close();
    },
  };
}

export { SCENARIO_NAMES, type ScenarioName } from './scenarios';
export type { FaultSpec } from './faults';
export type { Truth } from './truth';
export type { TokenRequest } from './tokens';
export type { LatencyProfileName } from './latency';
export type { WebhookDelivery, WebhookSettings } from './webhooks';
export type { SimSubscription } from './subscriptions';
export type { LimitErrors } from './writeLimits';
