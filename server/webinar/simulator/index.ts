/**
 * The Demio simulator, in process: `startDemioSimulator()` serves Demio's API for the Graph
 * simulator's world — one Demio account per ad account, an event date per webinar date its
 * campaigns advertise, the people behind its leads as registrants — on a local port. Given the Graph
 * simulator's world and clock it shares them (a Graph write or a clock move shows here too);
 * otherwise it builds the same world from the same settings.
 */
import type { SimClock } from '../../adplatform/simulator/clock';
import { simulatedWorld, type WorldSettings } from '../../adplatform/simulator/index';
import type { World } from '../../adplatform/simulator/world';
import { DemioSimulatorServer, API_PREFIX } from './http';
import { DEMIO_LIMITS, LimitMeter, type DemioLimits } from './limits';
import { DemioWorld } from './world';

export interface DemioSimulatorOptions extends WorldSettings {
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** The Graph simulator's world and clock to share; without them, built from the world settings. */
  world?: World;
  clock?: SimClock;
  /** Demio's limits per account (default 180 a minute, 5,000 a day). */
  limits?: Partial<DemioLimits>;
  /** The clock the limits count on: real time by default; a bench that moves the simulated clock passes it. */
  limitsNow?: () => number;
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
  const built = options.world && options.clock ? null : simulatedWorld(options);
  const clock = options.clock ?? built!.clock;
  const world = new DemioWorld(options.world ?? built!.world);
  const limits = new LimitMeter({ ...DEMIO_LIMITS, ...options.limits }, options.limitsNow);
  const server = new DemioSimulatorServer(world, clock, limits, {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
  });
  const origin = await server.listen();
  return { url: `${origin}${API_PREFIX}`, world, clock, server, close: () => server.close() };
}

export { simulatedKeys } from './world';
