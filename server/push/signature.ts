/**
 * Meta signs every webhook delivery: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw
 * body, keyed with the app secret>`. Compared in constant time, on the bytes as received (a body
 * parsed and serialised again would not be the one Meta signed).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const PREFIX = 'sha256=';

export const signatureOf = (body: Buffer | string, secret: string) =>
  PREFIX + createHmac('sha256', secret).update(body).digest('hex');

export function signatureMatches(header: string | undefined, body: Buffer, secret: string): boolean {
  if (!header?.startsWith(PREFIX)) return false;
  const given = Buffer.from(header.slice(PREFIX.length).trim(), 'hex');
  const expected = createHmac('sha256', secret).update(body).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}
