/**
 * Which webhook addresses alerts may go to. Pure: addresses are classified and names answered by a
 * fake resolver, so nothing here connects anywhere (a refused address is refused before any
 * connection; webhooks.test.ts posts, on loopback only).
 */
import { describe, expect, it } from 'vitest';
import { type AddressPolicy, checkDestination, refusedRange } from '../../../server/alerts/addressPolicy';

const resolvingTo =
  (...addresses: string[]): AddressPolicy['resolve'] =>
  async () =>
    addresses;
const open: AddressPolicy = { hosts: [], resolve: resolvingTo('1.1.1.1') };
const refusal = (url: string, policy: AddressPolicy = open) =>
  checkDestination(url, policy).then(
    () => null,
    (error: Error) => error.message,
  );

describe('the address ranges', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['::ffff:127.0.0.1', 'ipv4Mapped'],
    ['::ffff:8.8.8.8', 'ipv4Mapped'],
    ['224.0.0.1', 'multicast'],
  ])('refuses %s (%s)', (address, range) => {
    expect(refusedRange(address)).toBe(range);
  });

  it.each(['1.1.1.1', '34.120.1.2', '2606:4700:4700::1111'])('accepts the public address %s', (address) => {
    expect(refusedRange(address)).toBeNull();
  });
});

describe('a destination URL', () => {
  it('is accepted on https and port 443 when every address of its host is public', async () => {
    const checked = await checkDestination('https://hooks.slack.com/services/T/B/x', {
      hosts: [],
      resolve: resolvingTo('34.120.1.2', '2606:4700:4700::1111'),
    });
    expect(checked).toMatchObject({ address: '34.120.1.2', family: 4 });
    expect(checked.url.hostname).toBe('hooks.slack.com');
  });

  it.each([
    'https://127.0.0.1/hook',
    'https://127.1/hook',
    'https://0x7f.0.0.1/hook',
    'https://2130706433/hook',
    'https://017700000001/hook',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::ffff:7f00:1]/hook',
    'https://0.0.0.0/hook',
    'https://0/hook',
    'https://[::]/hook',
  ])('refuses loopback and unspecified addresses however they are spelled: %s', async (url) => {
    expect(await refusal(url)).toMatch(
      /^Enter a public address: this host leads to an? (loopback|unspecified|IPv4-mapped) address$/,
    );
  });

  it.each([
    ['10.0.0.1', 'a private network'],
    ['192.168.0.10', 'a private network'],
    ['169.254.169.254', 'a link-local'],
    ['fe80::1', 'a link-local'],
    ['100.100.100.200', 'a shared (CGNAT)'],
    ['fd00::5', 'a unique-local'],
    ['::ffff:10.0.0.1', 'an IPv4-mapped'],
    ['127.0.0.1', 'a loopback'],
  ])('refuses a name that resolves to %s', async (address, range) => {
    const policy = { hosts: [], resolve: resolvingTo(address) };
    expect(await refusal('https://hooks.example.test/services/x', policy)).toBe(
      `Enter a public address: this host leads to ${range} address`,
    );
  });

  it('refuses a name when any one of its addresses is not public', async () => {
    const policy = { hosts: [], resolve: resolvingTo('34.120.1.2', '10.0.0.1') };
    expect(await refusal('https://hooks.example.test/x', policy)).toMatch(/private network/);
  });

  it('refuses a name that does not resolve', async () => {
    const policy: AddressPolicy = {
      hosts: [],
      resolve: async () => {
        throw new Error('ENOTFOUND');
      },
    };
    expect(await refusal('https://nowhere.example.test/x', policy)).toBe('This host could not be found');
  });

  it('refuses credentials in the URL, plain http and ports other than 443', async () => {
    expect(await refusal('https://user:secret@hooks.slack.com/x')).toBe(
      'Leave the user name and password out of the address',
    );
    expect(await refusal('https://user@hooks.slack.com/x')).toBe('Leave the user name and password out of the address');
    expect(await refusal('http://hooks.slack.com/x')).toBe('Enter an https:// address');
    expect(await refusal('https://hooks.slack.com:8443/x')).toBe('Use the standard https port (443)');
    expect(await refusal('https://hooks.slack.com:443/x')).toBeNull();
  });

  it('with an allow-list, accepts its hosts only, and another port only where an entry names it', async () => {
    const policy = { hosts: ['hooks.slack.com', 'chat.example.test:8443'], resolve: resolvingTo('34.120.1.2') };
    expect(await refusal('https://hooks.slack.com/services/x', policy)).toBeNull();
    expect(await refusal('https://hooks.slack.com.evil.test/x', policy)).toBe(
      'Only these hosts are allowed: hooks.slack.com, chat.example.test',
    );
    expect(await refusal('https://chat.example.test:8443/x', policy)).toBeNull();
    expect(await refusal('https://hooks.slack.com:8443/x', policy)).toBe('Use the standard https port (443)');
  });

  it('accepts a refused range only at an address the allow-list names itself', async () => {
    const named = { hosts: ['127.0.0.1:9443'], resolve: resolvingTo('127.0.0.1') };
    expect(await refusal('https://127.0.0.1:9443/x', named)).toBeNull();
    expect(await refusal('https://127.0.0.2:9443/x', named)).toMatch(/^Only these hosts are allowed/);
    // Plain http stays refused without the tests' own switch.
    expect(await refusal('http://127.0.0.1:9443/x', named)).toBe('Enter an https:// address');
  });
});
