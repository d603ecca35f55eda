/**
 * Throttling of repeated attempts at the public calls (sign-in, password reset, joining): each key
 * (the client's address, the submitted e-mail …) may try a number of times per
 * LOGIN_RATE_WINDOW_SECONDS, then is answered 429 `{detail}` until its window ends.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './errors';

export type AttemptKey = (request: FastifyRequest) => string;

export const byAddress: AttemptKey = (request) => `ip:${request.ip}`;
/** The signed-in user (for calls that spend the ad platform's call budget: Run now, Preview, refreshes). */
export const byUser: AttemptKey = (request) => `user:${request.user?.id ?? request.ip}`;
export const byEmail: AttemptKey = (request) => {
  // Counted before the body is validated: anything but a string (an object whose toString is not a
  // function makes String() throw) is no e-mail, and validation answers it.
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return `email:${typeof email === 'string' ? email.trim().toLowerCase() : ''}`;
};

export interface AttemptLimit {
  key: AttemptKey;
  /** Attempts per window; LOGIN_RATE_LIMIT unless given. */
  max?: number;
}

/** preHandler counting the attempts of `name` per key; `what` names them in the answer ("Too many login attempts …"). */
export function limitAttempts(app: FastifyInstance, name: string, limits: AttemptLimit[], what = 'attempts') {
  const { max, windowMs } = app.config.loginRateLimit;
  const limiters = limits.map((limit) =>
    app.createRateLimit({
      max: limit.max ?? max,
      timeWindow: windowMs,
      keyGenerator: (r) =>
        createHash('sha256')
          .update(`${name}:${limit.key(r)}`)
          .digest('base64url'),
    }),
  );
  return async (request: FastifyRequest) => {
    for (const check of limiters) {
      const limit = await check(request);
      if (!limit.isAllowed && limit.isExceeded) {
        throw new ApiError(429, {
          detail: `Too many ${what}. Try again in ${Math.max(limit.ttlInSeconds, 1)} seconds.`,
        });
      }
    }
  };
}
