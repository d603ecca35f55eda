/**
 * The Demio simulator, in process: `startDemioSimulator()` serves Demio's API for the Graph
 * simulator's world — one Demio account per ad account, an event date per webinar date its
 * campaigns advertise, the people behind its leads as registrants — on a local port. Given the Graph
 * simulator's world and clock it shares them (a Graph write or a clock move shows here too);
 * otherwise it builds the same world from the same settings.
 */
import { SimClock } from '../../adplatform/simulator/clock';
import { addScenarios, SCENARIO_NAMES, type ScenarioName } from '../../adplatform/simulator/scenarios';
import { World } from '../../adplatform/simulator/world';
import { DemioSimulatorServer, API_PREFIX } from './http';
import { DEMIO_LIMITS, LimitMeter, type DemioLimits } from './limits';
import { DemioWorld } from './world';

export interface DemioSimulatorOptions {
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** The Graph simulator's world and clock to share; without them, built from the settings below. */
  world?: World;
  clock?: SimClock;
  seed?: number;
  start?: Date | string | number;
  speed?: number;
  scenarios?: readonly ScenarioName[];
  accounts?: number;
  campaignsPerAccount?: number;
  adsPerCampaign?: number;
  /** Demio's limits per account (default 180 a minute, 5,000 a day). */
  limits?: Partial<DemioLimits>;
}

export interface DemioSimulator {
  /** Demio's API base, e.g. http://127.0.0.1:40124/api/v1 — the client's DEMIO_API_URL. */
  url: string;
  world: DemioWorld;
  clock: SimClock;
  server: DemioSimulatorServer;
  close(): Promise<void>;
}

export async function startDemioSimulator(options: DemioSimulatorOptions = {}): Promise<DemioSimulator> {
  const start = options.start === undefined ? Date.now() : new Date(options.start).getTime();
  const clock = options.clock ?? new SimClock(start, options.speed ?? 1);
  let graph = options.world;
  if (!graph) {
    graph = new World({
      seed: options.seed ?? 1,
      start,
      accounts: options.accounts,
      campaignsPerAccount: options.campaignsPerAccount,
      adsPerCampaign: options.adsPerCampaign,
    });
    addScenarios(graph, options.scenarios ?? SCENARIO_NAMES, start);
  }
  const world = new DemioWorld(graph);
  const limits = new LimitMeter({ ...DEMIO_LIMITS, ...options.limits });
  const server = new DemioSimulatorServer(world, clock, limits, {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
  });
  const origin = await server.listen();
  return { url: `${origin}${API_PREFIX}`, world, clock, server, close: () => server.close() };
}

export { simulatedKeys } from './world';
