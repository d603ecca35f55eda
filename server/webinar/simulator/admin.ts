/**
 * The Demio simulator's admin API under `/__sim/` (JSON in and out, errors as `{detail}`), for
 * tests and a look by hand:
 *
 * - `GET state`: clock, accounts, events, dates, calls today per account, armed faults, limits
 * - `GET accounts`: each Demio account's ad account, name, and the key and secret the simulator takes
 * - `GET dates/{date_id}`: the date's campaigns and, per ad, its show-up rate, registrants and attendees
 * - `POST clock {advance_hours?, advance_ms?, set?}` (the clock the Graph simulator shares, when started with it)
 * - `POST faults {status, message?, count?, path?}` (e.g. 429 or 503 for the next calls) · `DELETE faults`
 * - `POST limits {perMinute?, perDay?}`
 */
import type { SimClock } from '../../adplatform/simulator/clock';
import type { DemioAnswer } from './api';
import type { LimitMeter } from './limits';
import { registrantsOf, showUpRate } from './participants';
import type { DemioWorld } from './world';

export interface DemioFault {
  status: number;
  message: string;
  count: number;
  /** Substring of the path under /api/v1 (default: every path). */
  path?: string;
}

export interface DemioAdminTarget {
  world: DemioWorld;
  clock: SimClock;
  limits: LimitMeter;
  faults: DemioFault[];
}

const json = (status: number, body: unknown): DemioAnswer => ({ status, body });

export function adminAnswer(target: DemioAdminTarget, method: string, path: string, body: string): DemioAnswer {
  let input: Record<string, unknown>;
  try {
    input = body ? (JSON.parse(body) as Record<string, unknown>) : {};
  } catch {
    return json(400, { detail: 'The body must be JSON' });
  }
  const { world, clock, limits } = target;
  if (path === 'state' && method === 'GET')
    return json(200, {
      clock: clock.state(),
      accounts: world.accounts.length,
      events: world.events.length,
      dates: world.events.reduce((sum, event) => sum + event.dates.length, 0),
      callsToday: limits.today(),
      faults: target.faults,
      limits: limits.limits,
    });
  if (path === 'accounts' && method === 'GET')
    return json(
      200,
      world.accounts.map((a) => ({
        ad_account_id: a.adAccountId,
        name: a.name,
        api_key: a.apiKey,
        api_secret: a.apiSecret,
        events: world.eventsOf(a).map((e) => ({ id: e.id, name: e.name, date_ids: e.dates.map((d) => d.dateId) })),
      })),
    );
  const datePath = /^dates\/(\d+)$/.exec(path);
  if (datePath && method === 'GET') {
    const date = world.date(Number(datePath[1]));
    if (!date) return json(404, { detail: 'No such event date' });
    const registrants = registrantsOf(world, date, clock.now());
    const ads = [...new Set(registrants.flatMap((r) => (r.adId ? [r.adId] : [])))].map((adId) => {
      const own = registrants.filter((r) => r.adId === adId);
      return {
        ad_id: adId,
        show_up_rate: showUpRate(world.graph, adId),
        registrants: own.length,
        website_registrants: own.filter((r) => r.website).length,
        attendees: own.filter((r) => r.attended).length,
      };
    });
    const organic = registrants.filter((r) => !r.adId);
    return json(200, {
      date_id: date.dateId,
      event_id: date.eventId,
      starts_at: new Date(date.startsAt).toISOString(),
      campaign_ids: date.campaignIds,
      ads,
      organic: { registrants: organic.length, attendees: organic.filter((r) => r.attended).length },
    });
  }
  if (path === 'clock' && method === 'POST') {
    try {
      if (typeof input.set === 'string') clock.set(Date.parse(input.set));
      if (typeof input.advance_ms === 'number') clock.advance(input.advance_ms);
      if (typeof input.advance_hours === 'number') clock.advance(input.advance_hours * 3_600_000);
    } catch (error) {
      return json(400, { detail: error instanceof Error ? error.message : String(error) });
    }
    return json(200, clock.state());
  }
  if (path === 'faults' && method === 'POST') {
    if (typeof input.status !== 'number') return json(400, { status: ['a number, e.g. 429 or 503'] });
    target.faults.push({
      status: input.status,
      message: typeof input.message === 'string' ? input.message : 'Service Unavailable',
      count: typeof input.count === 'number' ? input.count : 1,
      ...(typeof input.path === 'string' ? { path: input.path } : {}),
    });
    return json(200, target.faults);
  }
  if (path === 'faults' && method === 'DELETE') {
    target.faults.splice(0);
    return json(200, []);
  }
  if (path === 'limits' && method === 'POST') {
    limits.limits = {
      perMinute: typeof input.perMinute === 'number' ? input.perMinute : limits.limits.perMinute,
      perDay: typeof input.perDay === 'number' ? input.perDay : limits.limits.perDay,
    };
    return json(200, limits.limits);
  }
  return json(404, { detail: 'Unknown simulator admin path' });
}
