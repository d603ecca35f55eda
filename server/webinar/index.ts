/**
 * Which Demio the server talks to:
 * - DEMIO_API_URL set: that address (Demio's own, https://my.demio.com/api/v1, or a simulator
 *   started elsewhere);
 * - unset, with the ad platform simulated: a Demio simulator started in this process on a free local
 *   port, sharing the Graph simulator's world and clock (in process) or built from the same
 *   SIMULATOR_* settings (a Graph simulator elsewhere);
 * - unset, with Meta's own Graph API: Demio's own API (made-up registrants beside real ads would mislead).
 * Clients are made per folder key and secret; every client of one key shares that account's pacer.
 */
import type { Config } from '../config';
import type { AdPlatform } from '../adplatform/index';
import { simulatorSettings } from '../adplatform/simulator/settings';
import { DEMIO_API_URL, DemioClient } from './demioClient';
import { PacerRegistry } from './pacer';
import { startDemioSimulator, type DemioSimulator } from './simulator/index';

export interface WebinarPlatform {
  mode: 'demio' | 'simulator';
  baseUrl: string;
  simulator?: DemioSimulator;
  /** A client for one folder's Demio key and secret. */
  clientFor(credentials: { api_key: string; api_secret: string }): DemioClient;
  stop(): Promise<void>;
}

export async function startWebinarPlatform(
  config: Config,
  adPlatform: Pick<AdPlatform, 'mode' | 'simulator'>,
  env: NodeJS.ProcessEnv = process.env,
  log?: { info(message: string): void },
): Promise<WebinarPlatform> {
  const pacers = new PacerRegistry();
  const platform = (mode: WebinarPlatform['mode'], baseUrl: string, simulator?: DemioSimulator): WebinarPlatform => ({
    mode,
    baseUrl,
    simulator,
    clientFor: ({ api_key, api_secret }) =>
      new DemioClient({ baseUrl, apiKey: api_key, apiSecret: api_secret, pacer: pacers.pacerFor(api_key) }),
    stop: async () => simulator?.close(),
  });
  if (config.demioApiUrl) return platform('demio', config.demioApiUrl);
  if (adPlatform.mode === 'meta') return platform('demio', DEMIO_API_URL);
  const shared = adPlatform.simulator;
  const settings = simulatorSettings(env);
  const simulator = await startDemioSimulator(
    shared ? { world: shared.world, clock: shared.clock } : { ...settings, port: undefined },
  );
  log?.info(
    `webinar: no DEMIO_API_URL, using the Demio simulator at ${simulator.url} (keys: ${simulator.url.replace(/\/api\/v1$/, '')}/__sim/accounts)`,
  );
  return platform('simulator', simulator.url, simulator);
}
