/**
 * Access tokens whose signature was checked, until they expire: a signature never stops being
 * valid, so every request after the first skips the HMAC (the session and version are still
 * checked per request). Bounded; the oldest entry goes first.
 */
import type { AccessClaims } from './tokenTypes';

const VERIFIED_ACCESS_TOKENS_KEPT = 10_000;

export function verifiedAccessTokens() {
  const verified = new Map<string, { claims: AccessClaims; expiresAtMs: number }>();
  return {
    /** The claims of a token verified before that has not expired yet. */
    known(token: string): AccessClaims | undefined {
      const entry = verified.get(token);
      return entry && entry.expiresAtMs > Date.now() ? entry.claims : undefined;
    },

    remember(token: string, claims: AccessClaims, expiresAtMs: number) {
      if (verified.size >= VERIFIED_ACCESS_TOKENS_KEPT) verified.delete(verified.keys().next().value!);
      verified.set(token, { claims, expiresAtMs });
    },
  };
}
