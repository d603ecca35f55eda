/**
 * The simulator's admin API under `/__sim/` (JSON in, JSON out; errors as `{detail}`), for tests,
 * benches and a look by hand:
 *
 * - `GET state` · `POST clock {set?, advance_ms?, advance_hours?, speed?}`
 * - `POST faults` (one spec or a list) · `DELETE faults`
 * - `GET scenarios` (ids, description and lag per scenario) · `GET writes`
 * - `GET limits`: the writes refused by Meta's limits (writeLimits.ts), `limit_errors` in all
 * - `GET objects/{id}` status and lifetime metrics (reported and settled)
 * - `GET truth/{id}?at=&since=&until=` an ad's, ad set's, campaign's or account's reported and
 *   settled metrics at a moment (default now), over its life or some days
 * - `GET latency` · `POST latency {profile: "meta" | "off"}`
 * - `webhooks…`: the app's webhook callback and its deliveries (webhookAdmin.ts)
 * - `POST objects/{id}/meta_pause {reason: "advantage_plus" | "policy"}` Meta pauses it (metaPause.ts)
 * - `POST opt_in {account, breakdowns}` opts an ad account into breakdowns (breakdownOptIn.ts)
 * - `POST tokens {system_user?, business?, scopes?, expires_in_days?, accounts?}` issues a system-user
 *   token (201) · `GET tokens` · `POST tokens/{token} {accounts?, expires_at?}` changes its reach or
 *   expiry · `DELETE tokens/{token}` revokes it (tokens.ts)
 */
import type { GraphAnswer } from './answers';
import type { SimClock } from './clock';
import type { FaultBoard, FaultSpec } from './faults';
import { LATENCY_PROFILES, type LatencyProfileName, type LatencySwitch } from './latency';
import { SCENARIOS, type ScenarioName } from './scenarios';
import { tokenView, type TokenChange, type TokenRegistry, type TokenRequest } from './tokens';
import { inspect, truthOf } from './truth';
import { webhookAdminAnswer, type WebhookAdminContext } from './webhookAdmin';
import { isMetaPauseReason, META_PAUSE_REASONS, pauseByMeta } from './metaPause';
import { optIn } from './breakdownOptIn';
import type { World } from './world';

export interface AdminContext extends WebhookAdminContext {
  world: World;
  clock: SimClock;
  faults: FaultBoard;
  latency: LatencySwitch;
  writes: readonly unknown[];
  requests: readonly unknown[];
  /** The system-user tokens issued here (tokens.ts). */
  tokens: TokenRegistry;
}

const json = (status: number, value: unknown): GraphAnswer => ({ status, body: value });

function scenarioList(world: World) {
  return Object.fromEntries(
    [...world.scenarios].map(([name, objects]) => {
      const ad = world.ads.get(objects.adIds[0] ?? '');
      return [
        name,
        {
          ...objects,
          description: SCENARIOS[name as ScenarioName]?.description,
          lag: ad?.profile.lag ?? { website: 'website', onsite: 'instant_form' },
        },
      ];
    }),
  );
}

function timeParam(value: string | null, now: number): number {
  if (value === null || value === '') return now;
  const at = Date.parse(value);
  if (Number.isNaN(at)) throw new Error('at must be an ISO 8601 moment');
  return at;
}

export function adminAnswer(
  target: AdminContext,
  method: string,
  path: string,
  query: URLSearchParams,
  body: string,
): GraphAnswer {
  let input: Record<string, unknown> = {};
  try {
    input = body ? (JSON.parse(body) as Record<string, unknown>) : {};
  } catch {
    return json(400, { detail: 'The body must be JSON' });
  }
  const { world, clock } = target;
  try {
    if (path === 'state' && method === 'GET') return json(200, simulatorState(target));
    if (path === 'clock' && method === 'POST') {
      if (typeof input.set === 'string') clock.set(Date.parse(input.set));
      if (typeof input.advance_ms === 'number') clock.advance(input.advance_ms);
      if (typeof input.advance_hours === 'number') clock.advance(input.advance_hours * 3_600_000);
      if (typeof input.speed === 'number') clock.setSpeed(input.speed);
      return json(200, clock.state());
    }
    if (path === 'faults' && method === 'POST') {
      for (const spec of Array.isArray(input) ? input : [input]) target.faults.add(spec as unknown as FaultSpec);
      return json(200, target.faults.list());
    }
    if (path === 'faults' && method === 'DELETE') {
      target.faults.clear();
      return json(200, []);
    }
    if (path === 'latency' && method === 'GET') return json(200, { profile: target.latency.profile });
    if (path === 'latency' && method === 'POST') {
      const profile = input.profile as LatencyProfileName;
      if (!LATENCY_PROFILES.includes(profile))
        return json(400, { profile: [`must be one of ${LATENCY_PROFILES.join(', ')}`] });
      target.latency.profile = profile;
      return json(200, { profile });
    }
    const tokens = tokenAnswer(target, method, path, input);
    if (tokens) return tokens;
    const webhooks = webhookAdminAnswer(target, method, path, input);
    if (webhooks) return webhooks;
    if (path === 'scenarios' && method === 'GET') return json(200, scenarioList(world));
    if (path === 'writes' && method === 'GET') return json(200, target.writes);
    if (path === 'limits' && method === 'GET') return json(200, limitsView(world));
    const paused = /^objects\/(\d+)\/meta_pause$/.exec(path);
    if (paused && method === 'POST') {
      if (!isMetaPauseReason(input.reason))
        return json(400, { reason: [`must be one of ${Object.keys(META_PAUSE_REASONS).join(', ')}`] });
      return json(200, pauseByMeta(world, paused[1]!, input.reason, clock.now()));
    }
    if (path === 'opt_in' && method === 'POST')
      return json(200, { breakdowns: optIn(world, String(input.account), (input.breakdowns as string[]) ?? []) });
    const object = /^objects\/(\d+|act_\d+)$/.exec(path);
    if (object && method === 'GET') {
      const found = inspect(world, clock.now(), object[1]!);
      return found ? json(200, found) : json(404, { detail: 'No such object' });
    }
    const truth = /^truth\/(\d+|act_\d+)$/.exec(path);
    if (truth && method === 'GET') {
      const at = timeParam(query.get('at'), clock.now());
      const found = truthOf(world, truth[1]!, at, {
        since: query.get('since') ?? undefined,
        until: query.get('until') ?? undefined,
      });
      return found ? json(200, found) : json(404, { detail: 'No such object' });
    }
    return json(404, { detail: 'Unknown simulator admin path' });
  } catch (error) {
    return json(400, { detail: error instanceof Error ? error.message : String(error) });
  }
}

function tokenAnswer(
  target: AdminContext,
  method: string,
  path: string,
  input: Record<string, unknown>,
): GraphAnswer | undefined {
  const { tokens, clock } = target;
  if (path === 'tokens' && method === 'GET') return json(200, tokens.list().map(tokenView));
  if (path === 'tokens' && method === 'POST')
    return json(201, tokenView(tokens.issue(input as TokenRequest, clock.now())));
  const one = /^tokens\/([^/]+)$/.exec(path);
  if (!one) return undefined;
  const token = decodeURIComponent(one[1]!);
  const found =
    method === 'DELETE'
      ? tokens.revoke(token)
      : method === 'POST'
        ? tokens.change(token, input as TokenChange)
        : tokens.find(token);
  return found ? json(200, tokenView(found)) : json(404, { detail: 'No such token' });
}

/** The writes Meta's limits refused: budget changes, mutations per second, and both (`limit_errors`). */
function limitsView(world: World) {
  return { ...world.limits.errors, limit_errors: world.limits.total };
}

/** What the simulator holds: clock, sizes, scenarios, request and write counts, armed faults, latency. */
export function simulatorState(sim: AdminContext): Record<string, unknown> {
  return {
    clock: sim.clock.state(),
    accounts: sim.world.accounts.length,
    campaigns: sim.world.campaigns.size,
    ads: sim.world.ads.size,
    scenarios: [...sim.world.scenarios.keys()],
    requests: sim.requests.length,
    writes: sim.writes.length,
    limit_errors: sim.world.limits.total,
    faults: sim.faults.list(),
    latency: sim.latency.profile,
  };
}
