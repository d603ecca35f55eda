/** Signing and verifying the HS256 JWTs of the token service, SimpleJWT-shaped (`user_id`, `token_type`). */
import { type JWTPayload, SignJWT, jwtVerify } from 'jose';
import { TokenError } from './tokenTypes';

/** A verified token's payload: whose it is, its jti, and the session and version it may carry. */
export type VerifiedToken = JWTPayload & { user_id: number; jti: string; sid?: unknown; ver?: unknown };

export function tokenSigning(secret: string) {
  const key = new TextEncoder().encode(secret);
  return {
    async sign(claims: Record<string, unknown>, userId: number, seconds: number, jti: string) {
      return new SignJWT({ ...claims, user_id: userId })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(userId))
        .setJti(jti)
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + Math.max(1, Math.floor(seconds)))
        .sign(key);
    },

    /** The token's payload when its signature holds, it has not expired and it is of `type`; else a TokenError. */
    async verify(token: string, type: 'access' | 'refresh'): Promise<VerifiedToken> {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        if (payload.token_type !== type || typeof payload.user_id !== 'number' || !payload.jti) {
          throw new TokenError('Token has wrong type');
        }
        return payload as VerifiedToken;
      } catch (error) {
        if (error instanceof TokenError) throw error;
        throw new TokenError('Token is invalid or expired');
      }
    },
  };
}

export type TokenSigning = ReturnType<typeof tokenSigning>;
