/**
 * SimpleJWT-shaped tokens: a short-lived access token and a rotating refresh token, both tied to a
 * session (one sign-in, a row of `sessions`).
 *
 * - Each refresh token's jti is a row; using it marks the row. Presenting an already used refresh
 *   token again means it was stolen or replayed: the whole session (every token rotated from the
 *   same sign-in) is revoked, and the event is logged.
 * - A session ends SESSION_MAX_DAYS after its sign-in, however often it is refreshed.
 * - Access tokens carry the session id (`sid`) and the user's session version (`ver`): the auth
 *   hook refuses one whose session was revoked (logout) or whose version is behind (password
 *   change or reset, deactivation, e-mail change, lost group access — `endSessions`), at once.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { SignJWT, jwtVerify } from 'jose';
import type { Database } from '../db/client';
import { refreshTokens, sessions, users } from '../db/schema/index';
import { createUserWritesStore } from '../people/userWrites';

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

const DEFAULT_SESSION_MAX_SECONDS = 14 * 24 * 60 * 60;
const VERIFIED_ACCESS_TOKENS_KEPT = 10_000;

/**
 * `reads`: where a request's session check runs; `writes`: where sign-ins, renewals and sign-outs
 * run (the changes' own lane on PostgreSQL, app.writeDb): a renewal under the team's list traffic
 * waited its turn for a connection five times behind their statements (1.1–1.3 s at the median,
 * docs/decisions.md, "Server").
 */
export function createTokenService(reads: Database, settings: TokenSettings, writes: Database = reads) {
  const key = new TextEncoder().encode(settings.secret);
  const sessionMaxMs = (settings.sessionMaxSeconds ?? DEFAULT_SESSION_MAX_SECONDS) * 1000;
  const userWrites = createUserWritesStore(writes);
  /**
   * Access tokens whose signature was checked, until they expire: a signature never stops being
   * valid, so every request after the first skips the HMAC (the session and version are still
   * checked per request). Bounded; the oldest entry goes first.
   */
  const verifiedAccess = new Map<string, { claims: AccessClaims; expiresAtMs: number }>();
  const remember = (token: string, claims: AccessClaims, expiresAtMs: number) => {
    if (verifiedAccess.size >= VERIFIED_ACCESS_TOKENS_KEPT) verifiedAccess.delete(verifiedAccess.keys().next().value!);
    verifiedAccess.set(token, { claims, expiresAtMs });
  };

  async function sign(claims: Record<string, unknown>, userId: number, seconds: number, jti: string) {
    return new SignJWT({ ...claims, user_id: userId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(userId))
      .setJti(jti)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + Math.max(1, Math.floor(seconds)))
      .sign(key);
  }

  async function verify(token: string, type: 'access' | 'refresh') {
    try {
      const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
      if (payload.token_type !== type || typeof payload.user_id !== 'number' || !payload.jti) {
        throw new TokenError('Token has wrong type');
      }
      return payload as typeof payload & { user_id: number; jti: string; sid?: unknown; ver?: unknown };
    } catch (error) {
      if (error instanceof TokenError) throw error;
      throw new TokenError('Token is invalid or expired');
    }
  }

  /** A token pair for a session; the refresh token never outlives the session. */
  async function pairFor(userId: number, version: number, session: { id: string; expiresAt: Date }) {
    const jti = randomUUID();
    const refreshMs = Math.min(settings.refreshTokenSeconds * 1000, session.expiresAt.getTime() - Date.now());
    if (refreshMs <= 0) throw new TokenError('Session expired');
    await writes
      .insert(refreshTokens)
      .values({ jti, userId, sessionId: session.id, expiresAt: new Date(Date.now() + refreshMs) });
    return {
      access: await sign(
        { token_type: 'access', sid: session.id, ver: version },
        userId,
        Math.min(settings.accessTokenSeconds, refreshMs / 1000),
        randomUUID(),
      ),
      refresh: await sign({ token_type: 'refresh', sid: session.id }, userId, refreshMs / 1000, jti),
    };
  }

  async function versionOf(userId: number): Promise<{ version: number; isActive: boolean } | null> {
    const [user] = await writes
      .select({ version: users.sessionVersion, isActive: users.isActive })
      .from(users)
      .where(eq(users.id, userId));
    return user ?? null;
  }

  async function revokeSession(sessionId: string, reason: SessionEnd) {
    await writes
      .update(sessions)
      .set({ revokedAt: sql`now()`, revokedReason: reason })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
    await writes
      .update(refreshTokens)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(refreshTokens.sessionId, sessionId), isNull(refreshTokens.revokedAt)));
  }

  return {
    /** Signs a user in: a new session and its first pair. */
    async issue(userId: number): Promise<TokenPair> {
      const user = await versionOf(userId);
      if (!user) throw new TokenError('User not found');
      const id = randomUUID();
      const expiresAt = new Date(Date.now() + sessionMaxMs);
      await writes.insert(sessions).values({ id, userId, expiresAt });
      return pairFor(userId, user.version, { id, expiresAt });
    },

    /** What an access token speaks for; the caller checks the session (`sessionExpiry`) and the version. */
    async verifyAccess(token: string): Promise<AccessClaims> {
      const known = verifiedAccess.get(token);
      if (known && known.expiresAtMs > Date.now()) return known.claims;
      const payload = await verify(token, 'access');
      const claims = {
        userId: payload.user_id,
        sessionId: typeof payload.sid === 'string' ? payload.sid : null,
        version: typeof payload.ver === 'number' ? payload.ver : -1,
      };
      remember(token, claims, (payload.exp ?? 0) * 1000);
      return claims;
    },

    /** When a session ends, or null when it has ended already (revoked, expired) or never was. */
    async sessionExpiry(sessionId: string): Promise<Date | null> {
      const [row] = await reads
        .select({ expiresAt: sessions.expiresAt })
        .from(sessions)
        .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)));
      return row?.expiresAt ?? null;
    },

    /** Trades a refresh token for a new pair; the old one can never be used again (reuse ends the session). */
    async rotate(refresh: string): Promise<TokenPair> {
      const payload = await verify(refresh, 'refresh');
      const userId = payload.user_id;
      const [used] = await writes
        .update(refreshTokens)
        .set({ usedAt: sql`now()` })
        .where(and(eq(refreshTokens.jti, payload.jti), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt)))
        .returning({ sessionId: refreshTokens.sessionId });
      if (!used) {
        const [known] = await writes
          .select({ sessionId: refreshTokens.sessionId, usedAt: refreshTokens.usedAt })
          .from(refreshTokens)
          .where(eq(refreshTokens.jti, payload.jti));
        if (known?.usedAt && known.sessionId) {
          await revokeSession(known.sessionId, 'reuse');
          settings.onReuse?.({ userId, sessionId: known.sessionId });
        }
        throw new TokenError('Token is blacklisted');
      }
      const [session] = used.sessionId
        ? await writes
            .select()
            .from(sessions)
            .where(and(eq(sessions.id, used.sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)))
        : [];
      if (!session) throw new TokenError('Session expired');
      const user = await versionOf(userId);
      if (!user?.isActive) throw new TokenError('User is inactive');
      return pairFor(userId, user.version, session);
    },

    /** Logout: the session of this refresh token ends, every token of it with it. */
    async logout(refresh: string): Promise<void> {
      const payload = await verify(refresh, 'refresh');
      if (typeof payload.sid === 'string') await revokeSession(payload.sid, 'logout');
    },

    /**
     * Every session of the user ends now: access tokens stop working at their next request (the
     * version moves on) and refresh tokens are revoked. A caller that keeps the user signed in
     * (their own password change) issues a fresh session afterwards.
     */
    async endSessions(userId: number, reason: SessionEnd): Promise<void> {
      await userWrites.bumpSessionVersion(userId);
      await writes
        .update(sessions)
        .set({ revokedAt: sql`now()`, revokedReason: reason })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
      await writes
        .update(refreshTokens)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
