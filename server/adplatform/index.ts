/**
 * Which ad platform the server talks to (docs/engine.md#the-ad-platform):
 * - META_ACCESS_TOKEN set: Meta's Graph API at META_GRAPH_URL (default https://graph.facebook.com);
 * - no token but META_GRAPH_URL set: a simulator started elsewhere (`npm run simulator`), shared by
 *   every process of a scaled-out test deployment;
 * - neither: a simulator started in this process on a free local port.
 * The client is the same GraphClient in all three cases. A META_API_VERSION that is not live (on
 * Meta's calendar at start, or on the simulator's clock at its start) is refused before any call.
 */
import type { Config } from '../config';
import { GraphClient, type GraphClientEvent } from './graphClient';
import { startSimulator, type Simulator } from './simulator/index';
import { simulatorSettings } from './simulator/settings';
import { versionProblem } from './versions';

export const DEFAULT_GRAPH_URL = 'https://graph.facebook.com';
export const SIMULATOR_TOKEN = 'simulator-token';

export interface AdPlatform {
  mode: 'meta' | 'external-simulator' | 'simulator';
  baseUrl: string;
  client: GraphClient;
  /** The in-process simulator, when there is one. */
  simulator?: Simulator;
  /** What the client's retries and waits are logged by: clients with other tokens log the same way. */
  onEvent(event: GraphClientEvent): void;
  stop(): Promise<void>;
}

export interface AdPlatformLogger {
  info(message: string): void;
  warn(message: string): void;
}

export async function startAdPlatform(
  config: Config,
  env: NodeJS.ProcessEnv = process.env,
  log?: AdPlatformLogger,
): Promise<AdPlatform> {
  const onEvent = (event: GraphClientEvent) => {
    if (event.type === 'retry')
      log?.warn(
        `ad platform: ${event.error.message} — retry ${event.attempt} in ${event.delayMs} ms (${event.path || 'batch'})`,
      );
    if (event.type === 'throttle')
      log?.warn(`ad platform: usage is high, waiting ${event.delayMs} ms before ${event.path || 'batch'}`);
    if (event.type === 'smaller-page' || event.type === 'fewer-days' || event.type === 'async-report')
      log?.info(`ad platform: too much data asked of ${event.path}, reading it again as ${event.type}`);
  };
  // A simulator judges versions on its own clock, which SIMULATOR_START may set in the past.
  const simulatorStart = config.metaAccessToken ? Number.NaN : Date.parse(env.SIMULATOR_START ?? '');
  const problem = versionProblem(config.metaApiVersion, Number.isNaN(simulatorStart) ? Date.now() : simulatorStart);
  if (problem) throw new Error(problem);
  if (config.metaAccessToken) {
    const baseUrl = config.metaGraphUrl ?? DEFAULT_GRAPH_URL;
    const client = new GraphClient({
      baseUrl,
      apiVersion: config.metaApiVersion,
      accessToken: config.metaAccessToken,
      onEvent,
    });
    return { mode: 'meta', baseUrl, client, onEvent, stop: async () => undefined };
  }
  if (config.metaGraphUrl) {
    const client = new GraphClient({
      baseUrl: config.metaGraphUrl,
      apiVersion: config.metaApiVersion,
      accessToken: SIMULATOR_TOKEN,
      onEvent,
    });
    return { mode: 'external-simulator', baseUrl: config.metaGraphUrl, client, onEvent, stop: async () => undefined };
  }
  const simulator = await startSimulator(simulatorSettings(env));
  log?.info(`ad platform: no META_ACCESS_TOKEN, using the Graph API simulator at ${simulator.url}`);
  const client = new GraphClient({
    baseUrl: simulator.url,
    apiVersion: config.metaApiVersion,
    accessToken: SIMULATOR_TOKEN,
    onEvent,
  });
  return { mode: 'simulator', baseUrl: simulator.url, client, simulator, onEvent, stop: () => simulator.close() };
}

export { GraphClient } from './graphClient';
export type { AdPlatformClient } from './types';
