/**
 * Which webhook addresses alerts may be posted to, checked when a destination is saved and again
 * before each post: https on port 443, no user name or password in the URL, a host on the allow-list
 * when one is set (ALERT_WEBHOOK_HOSTS), and every address the host resolves to a public one —
 * loopback, private, link-local, CGNAT, unique-local, IPv4-mapped, unspecified and every other
 * special range (ipaddr.js's classification: anything but `unicast`) are refused. The post then
 * connects to the address checked here (webhook.ts), so a second resolution cannot swap it.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Every address a host name resolves to. */
export type Resolver = (host: string) => Promise<string[]>;

export interface AddressPolicy {
  /**
   * ALERT_WEBHOOK_HOSTS: when any, only these hosts. An entry `host:port` also allows that port;
   * an entry that is an address allows that very address (a URL's or a name's answer), in whatever
   * range: the operator named it.
   */
  hosts: string[];
  resolve?: Resolver;
  /** Plain http to an allowed host: for tests' local receivers only, no setting turns it on. */
  plainHttpForTests?: boolean;
}

export interface CheckedDestination {
  url: URL;
  /** The address the post connects to: one of the host's, all of them checked. */
  address: string;
  family: 4 | 6;
}

/** A destination the policy refuses; its message names the problem, never the URL. */
export class RefusedDestination extends Error {}

const RANGE_NAMES: Record<string, string> = {
  loopback: 'a loopback',
  private: 'a private network',
  linkLocal: 'a link-local',
  carrierGradeNat: 'a shared (CGNAT)',
  uniqueLocal: 'a unique-local',
  ipv4Mapped: 'an IPv4-mapped',
  unspecified: 'an unspecified',
  multicast: 'a multicast',
  broadcast: 'a broadcast',
};

/** Why an address may not be posted to (e.g. 'loopback'), or null for a public unicast address. */
export function refusedRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'invalid';
  const range = ipaddr.parse(address).range();
  return range === 'unicast' ? null : range;
}

const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((answer) => answer.address);

const bare = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();

interface Allowance {
  host: string;
  port: number;
}

function allowances(hosts: string[]): Allowance[] {
  return hosts.flatMap((entry) => {
    const url = URL.canParse(`https://${entry}`) ? new URL(`https://${entry}`) : null;
    return url ? [{ host: bare(url.hostname), port: Number(url.port || 443) }] : [];
  });
}

const sameAddress = (a: string, b: string) =>
  ipaddr.isValid(a) && ipaddr.isValid(b) && ipaddr.process(a).toString() === ipaddr.process(b).toString();

/** The URL checked against the policy and resolved: refused with RefusedDestination, else pinned to an address. */
export async function checkDestination(raw: string, policy: AddressPolicy): Promise<CheckedDestination> {
  if (!URL.canParse(raw)) throw new RefusedDestination('Enter a web address');
  const url = new URL(raw);
  const plainHttp = policy.plainHttpForTests && url.protocol === 'http:';
  if (url.protocol !== 'https:' && !plainHttp) throw new RefusedDestination('Enter an https:// address');
  if (url.username || url.password) throw new RefusedDestination('Leave the user name and password out of the address');
  const host = bare(url.hostname);
  const allowed = allowances(policy.hosts);
  const named = allowed.filter((entry) => entry.host === host);
  if (allowed.length && !named.length)
    throw new RefusedDestination(
      `Only these hosts are allowed: ${[...new Set(allowed.map((e) => e.host))].join(', ')}`,
    );
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (port !== 443 && !named.some((entry) => entry.port === port))
    throw new RefusedDestination('Use the standard https port (443)');

  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await (policy.resolve ?? systemResolver)(host);
  } catch {
    addresses = [];
  }
  if (!addresses.length) throw new RefusedDestination('This host could not be found');
  for (const address of addresses) {
    const range = refusedRange(address);
    if (range && !allowed.some((entry) => sameAddress(entry.host, address)))
      throw new RefusedDestination(
        `Enter a public address: this host leads to ${RANGE_NAMES[range] ?? 'a reserved'} address`,
      );
  }
  const address = addresses[0]!;
  return { url, address, family: isIP(address) === 6 ? 6 : 4 };
}

/** The policy of the server's settings. */
export const addressPolicyOf = (config: { alertWebhookHosts: string[] }): AddressPolicy => ({
  hosts: config.alertWebhookHosts,
});
