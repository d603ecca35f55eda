/**
 * SimpleJWT-shaped tokens: a short-lived access token and a rotating refresh token, both tied to a
 * session (one sign-in, a row of `sessions`).
 *
 * - Each refresh token's jti is a row; using it marks the row. Presenting an already used refresh
 *   token again means it was stolen or replayed: the whole session (every token rotated from the
 *   same sign-in) is revoked, and the event is logged (refreshRotation.ts).
 * - A session ends SESSION_MAX_DAYS after its sign-in, however often it is refreshed (newSessions.ts).
 * - Access tokens carry the session id (`sid`) and the user's session version (`ver`): the auth
 *   hook refuses one whose session was revoked (logout) or whose version is behind (password
 *   change or reset, deactivation, e-mail change, lost group access — `endSessions`,
 *   sessionEnds.ts), at once; it reads both through accessChecks.ts.
 *
 * Signing and verifying: tokenSigning.ts (an access token's signature is checked once:
 * verifiedAccessTokens.ts); a session's pairs: tokenPairs.ts; the shapes: tokenTypes.ts.
 */
import type { Database } from '../db/client';
import { accessChecksOf } from './accessChecks';
import { newSessionsOf } from './newSessions';
import { refreshRotationOf } from './refreshRotation';
import { sessionEndsOf } from './sessionEnds';
import { tokenPairsOf } from './tokenPairs';
import { tokenSigning } from './tokenSigning';
import type { TokenSettings } from './tokenTypes';

export {
  TokenError,
  type AccessClaims,
  type SessionEnd,
  type TokenPair,
  type TokenSettings,
} from './tokenTypes';

const DEFAULT_SESSION_MAX_SECONDS = 14 * 24 * 60 * 60;

/**
 * `reads`: where a request's session check runs; `writes`: where sign-ins, renewals and sign-outs
 * run (the changes' own lane on PostgreSQL, app.writeDb): a renewal under the team's list traffic
 * waited its turn for a connection five times behind their statements (1.1–1.3 s at the median,
 * docs/decisions.md, "Server").
 */
export function createTokenService(reads: Database, settings: TokenSettings, writes: Database = reads) {
  const signing = tokenSigning(settings.secret);
  const pairs = tokenPairsOf(writes, settings, signing);
  const sessionMaxMs = (settings.sessionMaxSeconds ?? DEFAULT_SESSION_MAX_SECONDS) * 1000;
  return {
    ...newSessionsOf(writes, sessionMaxMs, pairs),
    ...accessChecksOf(reads, signing),
    ...refreshRotationOf(writes, settings, signing, pairs),
    ...sessionEndsOf(writes),
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
