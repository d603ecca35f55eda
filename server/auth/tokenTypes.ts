/** The token service's shapes (tokens.ts): a pair, its settings, why a session ends, what an access token says. */

export interface TokenPair {
  access: string;
  refresh: string;
}

export interface TokenSettings {
  secret: string;
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
  /** Absolute session lifetime (SESSION_MAX_DAYS), in seconds. */
  sessionMaxSeconds?: number;
  /** Told about refresh-token reuse (a stolen token): the server log. */
  onReuse?: (event: { userId: number; sessionId: string }) => void;
}

export type SessionEnd = 'logout' | 'reuse' | 'password' | 'deactivated' | 'email' | 'access';

export class TokenError extends Error {}

export interface AccessClaims {
  userId: number;
  sessionId: string | null;
  version: number;
}
