/**
 * scrypt password hashes (node:crypto, no native addon): `scrypt$N$r$p$salt$hash`, base64url.
 * Parameters are OWASP's current recommendation for scrypt (N = 2^17, r = 8, p = 1: 128 MiB, a few
 * hundred milliseconds) unless PASSWORD_HASH_COST lowers N (server/config.ts); a hash made with
 * weaker ones still verifies and is upgraded at the next sign-in (`needsRehash`).
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { MAX_PASSWORD_LENGTH } from '../../shared/constants';
import { passwordHashCost, RECOMMENDED_PASSWORD_HASH_COST } from '../config';

const PARAMS = { N: 2 ** passwordHashCost(), r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
/** scrypt needs 128 · N · r bytes; leave room above it. */
const MAX_MEMORY = 256 * 1024 * 1024;

function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(password, salt, KEY_LENGTH, { ...options, maxmem: MAX_MEMORY }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Stored parameters within what this server would ever use (a tampered row cannot ask for 1 TiB). */
const sane = (n: number, r: number, p: number) =>
  Number.isInteger(Math.log2(n)) &&
  n >= 2 ** 10 &&
  n <= 2 ** RECOMMENDED_PASSWORD_HASH_COST &&
  r >= 1 &&
  r <= 32 &&
  p >= 1 &&
  p <= 16;

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  const [N, R, P] = [Number(n), Number(r), Number(p)];
  if (scheme !== 'scrypt' || !salt || !hash || !sane(N, R, P)) return false;
  // Never hash an over-long password: the answer is no, at once (the forms refuse it anyway).
  if (password.length > MAX_PASSWORD_LENGTH) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), { N, r: R, p: P });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Whether a stored hash uses weaker parameters than today's (then re-hash after a good sign-in). */
export function needsRehash(stored: string): boolean {
  const [scheme, n, r, p] = stored.split('$');
  return scheme !== 'scrypt' || Number(n) < PARAMS.N || Number(r) < PARAMS.r || Number(p) < PARAMS.p;
}

/** A hash to compare against when the e-mail is unknown, so both paths take the same time. */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(12).toString('hex'));
  return decoy;
}
