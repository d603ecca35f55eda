/**
 * Breakdowns an ad account must opt into since 3 August 2026 (impression_device, the hourly
 * breakdown in the audience's time zone, frequency_value): a synchronous insights read asking for
 * one, on an account that has not opted in, answers no rows and does not say why, as Graph does.
 * An empty answer is not zero. Opt-ins are set per account (`Simulator.optIn`, `POST /__sim/opt_in`);
 * once opted in (or before that date) the read goes on to insightQuery.ts, which answers or refuses
 * the breakdown as it does any other.
 */
import type { GraphAnswer, Params } from './answers';
import type { World } from './world';

export const OPT_IN_BREAKDOWNS = [
  'impression_device',
  'hourly_stats_aggregated_by_audience_time_zone',
  'frequency_value',
] as const;

export const OPT_IN_REQUIRED_FROM = Date.parse('2026-08-03T00:00:00Z');

function breakdownsOf(raw: string | undefined): string[] {
  if (!raw) return [];
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (Array.isArray(parsed)) return parsed.map(String);
  } catch {
    // a comma list
  }
  return raw.split(',').map((item) => item.trim());
}

/** The ad account (digits) of an insights path's object. */
function accountOf(world: World, head: string): string | undefined {
  if (head.startsWith('act_')) return head.slice('act_'.length);
  return (world.campaigns.get(head) ?? world.adsets.get(head) ?? world.ads.get(head))?.accountId;
}

/** The empty answer to a read of a breakdown the account has not opted into; undefined for any other call. */
export function noRowsWithoutOptIn(
  world: World,
  now: number,
  call: { method: string; path: string; params: Params },
): GraphAnswer | undefined {
  const [head, edge, ...rest] = call.path.split('/');
  if (call.method !== 'GET' || edge !== 'insights' || rest.length || !head || now < OPT_IN_REQUIRED_FROM)
    return undefined;
  const needed = breakdownsOf(call.params.breakdowns).filter((b) =>
    (OPT_IN_BREAKDOWNS as readonly string[]).includes(b),
  );
  const accountId = accountOf(world, head);
  if (!needed.length || !accountId) return undefined;
  const optedIn = world.optIns.get(accountId) ?? new Set<string>();
  if (needed.every((b) => optedIn.has(b))) return undefined;
  return { status: 200, body: { data: [] }, accountId };
}

/** Opts an ad account (digits or act_…) into breakdowns; answers what it is opted into. */
export function optIn(world: World, account: string, breakdowns: readonly string[]): string[] {
  const accountId = account.replace(/^act_/, '');
  if (!world.account(accountId)) throw new Error(`The simulator has no ad account ${account}`);
  const unknown = breakdowns.filter((b) => !(OPT_IN_BREAKDOWNS as readonly string[]).includes(b));
  if (unknown.length)
    throw new Error(`${unknown.join(', ')}: not a breakdown that needs an opt-in (${OPT_IN_BREAKDOWNS.join(', ')})`);
  const own = world.optIns.get(accountId) ?? new Set<string>();
  for (const b of breakdowns) own.add(b);
  world.optIns.set(accountId, own);
  return [...own];
}
