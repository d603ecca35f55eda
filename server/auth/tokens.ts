/**
 * SimpleJWT-shaped tokens: a short-lived access token and a rotating refresh token.
 * Each refresh token's jti is a row; using it marks the row, so a replayed token is refused.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { SignJWT, jwtVerify } from 'jose';
import type { Database } from '../db/client';
import { refreshTokens, users } from '../db/schema/index';

export interface TokenPair {
  access: string;
  refresh: string;
}

export interface TokenSettings {
  secret: string;
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
}

export class TokenError extends Error {}

export function createTokenService(db: Database, settings: TokenSettings) {
  const key = new TextEncoder().encode(settings.secret);

  async function sign(userId: number, type: 'access' | 'refresh', seconds: number, jti: string): Promise<string> {
    return new SignJWT({ token_type: type, user_id: userId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(userId))
      .setJti(jti)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + seconds)
      .sign(key);
  }

  async function verify(token: string, type: 'access' | 'refresh') {
    try {
      const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
      if (payload.token_type !== type || typeof payload.user_id !== 'number' || !payload.jti) {
        throw new TokenError('Token has wrong type');
      }
      return { userId: payload.user_id, jti: payload.jti };
    } catch (error) {
      if (error instanceof TokenError) throw error;
      throw new TokenError('Token is invalid or expired');
    }
  }

  async function issue(userId: number): Promise<TokenPair> {
    const jti = randomUUID();
    await db.insert(refreshTokens).values({
      jti,
      userId,
      expiresAt: new Date(Date.now() + settings.refreshTokenSeconds * 1000),
    });
    return {
      access: await sign(userId, 'access', settings.accessTokenSeconds, randomUUID()),
      refresh: await sign(userId, 'refresh', settings.refreshTokenSeconds, jti),
    };
  }

  return {
    issue,

    /** The user id an access token speaks for. */
    verifyAccess: async (token: string) => (await verify(token, 'access')).userId,

    /** Trades a refresh token for a new pair; the old one can never be used again. */
    async rotate(refresh: string): Promise<TokenPair> {
      const { userId, jti } = await verify(refresh, 'refresh');
      const [used] = await db
        .update(refreshTokens)
        .set({ usedAt: sql`now()` })
        .where(and(eq(refreshTokens.jti, jti), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt)))
        .returning({ userId: refreshTokens.userId });
      if (!used) throw new TokenError('Token is blacklisted');
      const [user] = await db.select({ isActive: users.isActive }).from(users).where(eq(users.id, userId));
      if (!user?.isActive) throw new TokenError('User is inactive');
      return issue(userId);
    },

    /** Every outstanding refresh token of the user stops working (password reset, deactivation). */
    async revokeAll(userId: number): Promise<void> {
      await db
        .update(refreshTokens)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
