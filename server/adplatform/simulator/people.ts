/**
 * The people behind simulated leads: a name, an e-mail and a phone number drawn by hash from the
 * world's seed and a key (an ad id and lead number), so the Graph simulator's lead edge and the
 * Demio simulator's registrants name the same person. Addresses are at the reserved example
 * domains (RFC 2606) and never belong to anyone. Some are written as a person types them (capitals,
 * a stray space), as lead forms hand them over; the same address written lower-case is the same person.
 */
import { unitHash } from './lag';

export interface SimPerson {
  firstName: string;
  lastName: string;
  /** As typed into the form. */
  email: string;
  phone: string;
}

const FIRST_NAMES = [
  'Margaret',
  'Robert',
  'Linda',
  'James',
  'Patricia',
  'Richard',
  'Barbara',
  'William',
  'Susan',
  'Thomas',
  'Carol',
  'Charles',
  'Nancy',
  'Donald',
  'Sandra',
  'Gary',
  'Sharon',
  'Kenneth',
  'Donna',
  'Ronald',
] as const;
const LAST_NAMES = [
  'Hughes',
  'Bennett',
  'Coleman',
  'Foster',
  'Griffin',
  'Hayes',
  'Jenkins',
  'Murphy',
  'Perry',
  'Russell',
  'Sanders',
  'Watson',
  'Brooks',
  'Kelly',
  'Price',
  'Ward',
  'Powell',
  'Long',
  'Butler',
  'Barnes',
] as const;
const DOMAINS = ['example.com', 'example.net', 'example.org'] as const;

const pick = <T>(items: readonly T[], u: number): T => items[Math.floor(u * items.length)]!;

/** The person behind `key` (e.g. `${adId}:${k}`); `unique` keeps addresses apart (digits of the key). */
export function simPerson(seed: number, key: string, unique: string): SimPerson {
  const draw = (what: string) => unitHash(`${seed}:person:${what}:${key}`);
  const firstName = pick(FIRST_NAMES, draw('first'));
  const lastName = pick(LAST_NAMES, draw('last'));
  const local = `${firstName}.${lastName}${unique}`;
  const domain = pick(DOMAINS, draw('domain'));
  const style = draw('style');
  const email =
    style < 0.2
      ? `${local}@${domain}`
      : style < 0.3
        ? ` ${local.toLowerCase()}@${domain} `
        : `${local.toLowerCase()}@${domain}`;
  const phone = `+1555${String(Math.floor(draw('phone') * 10_000_000)).padStart(7, '0')}`;
  return { firstName, lastName, email, phone };
}
