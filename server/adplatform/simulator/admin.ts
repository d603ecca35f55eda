/**
 * The simulator's admin API under `/__sim/` (not Graph's): read its state, move its clock, arm and
 * clear faults, list scenarios and writes, and inspect an object's status and lifetime metrics.
 * Answers are plain JSON; bad input is `{detail}` with 400.
 */
import type { SimClock } from './clock';
import { adTotals, graphMetrics, statusAt } from './delivery';
import type { FaultBoard, FaultSpec } from './faults';
import type { GraphAnswer } from './answers';
import { effectiveStatus } from './nodes';
import type { ScenarioName } from './scenarios';
import type { World } from './world';

export interface AdminContext {
  world: World;
  clock: SimClock;
  faults: FaultBoard;
  writes: readonly unknown[];
  requests: readonly unknown[];
}

export function adminAnswer(sim: AdminContext, method: string, path: string, body: string): GraphAnswer {
  const json = (status: number, value: unknown): GraphAnswer => ({ status, body: value });
  let input: Record<string, unknown> = {};
  try {
    input = body ? (JSON.parse(body) as Record<string, unknown>) : {};
  } catch {
    return json(400, { detail: 'The body must be JSON' });
  }
  try {
    if (path === 'state' && method === 'GET') return json(200, simulatorState(sim));
    if (path === 'clock' && method === 'POST') {
      if (typeof input.set === 'string') sim.clock.set(Date.parse(input.set));
      if (typeof input.advance_ms === 'number') sim.clock.advance(input.advance_ms);
      if (typeof input.advance_hours === 'number') sim.clock.advance(input.advance_hours * 3_600_000);
      if (typeof input.speed === 'number') sim.clock.setSpeed(input.speed);
      return json(200, sim.clock.state());
    }
    if (path === 'faults' && method === 'POST') {
      for (const spec of Array.isArray(input) ? input : [input]) sim.faults.add(spec as unknown as FaultSpec);
      return json(200, sim.faults.list());
    }
    if (path === 'faults' && method === 'DELETE') {
      sim.faults.clear();
      return json(200, []);
    }
    if (path === 'scenarios' && method === 'GET') return json(200, Object.fromEntries(sim.world.scenarios));
    if (path === 'writes' && method === 'GET') return json(200, sim.writes);
    const object = /^objects\/(\d+)$/.exec(path);
    if (object && method === 'GET') {
      const found = inspect(sim.world, sim.clock, object[1]!);
      return found ? json(200, found) : json(404, { detail: 'No such object' });
    }
    return json(404, { detail: 'Unknown simulator admin path' });
  } catch (error) {
    return json(400, { detail: error instanceof Error ? error.message : String(error) });
  }
}

/** What the simulator holds: clock, sizes, scenarios, request and write counts, armed faults. */
export function simulatorState(sim: AdminContext): Record<string, unknown> {
  return {
    clock: sim.clock.state(),
    accounts: sim.world.accounts.length,
    campaigns: sim.world.campaigns.size,
    ads: sim.world.ads.size,
    scenarios: [...sim.world.scenarios.keys()] as ScenarioName[],
    requests: sim.requests.length,
    writes: sim.writes.length,
    faults: sim.faults.list(),
  };
}

/** An object's current status and lifetime metrics, for tests and the admin API. */
export function inspect(world: World, clock: SimClock, id: string): Record<string, unknown> | undefined {
  const now = clock.now();
  const ad = world.ads.get(id);
  if (ad) {
    const campaign = world.campaigns.get(ad.campaignId)!;
    const adset = world.adsets.get(ad.adsetId)!;
    return {
      id,
      kind: 'ad',
      name: ad.name,
      deleted: ad.deleted,
      status: statusAt(ad.statusLog, now),
      effective_status: effectiveStatus(world, ad, now),
      lifetime: graphMetrics(adTotals(ad, adset, campaign, -Infinity, now)),
    };
  }
  const campaign = world.campaigns.get(id);
  if (campaign)
    return {
      id,
      kind: 'campaign',
      name: campaign.name,
      status: statusAt(campaign.statusLog, now),
      effective_status: effectiveStatus(world, campaign, now),
    };
  const adset = world.adsets.get(id);
  if (adset)
    return {
      id,
      kind: 'adset',
      name: adset.name,
      status: statusAt(adset.statusLog, now),
      effective_status: effectiveStatus(world, adset, now),
    };
  return undefined;
}
