/** Limits for the public people calls (reset request, reset confirm, join), like login's. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors';

type KeyOf = (request: FastifyRequest) => string;

export function publicRateLimit(app: FastifyInstance, name: string, keys: KeyOf[]) {
  const { max, windowMs } = app.config.loginRateLimit;
  const limiters = keys.map((key) => app.createRateLimit({ max, timeWindow: windowMs, keyGenerator: (r) => `${name}:${key(r)}` }));
  return async (request: FastifyRequest) => {
    for (const check of limiters) {
      const limit = await check(request);
      if (!limit.isAllowed && limit.isExceeded) {
        throw new ApiError(429, { detail: `Too many attempts. Try again in ${Math.max(limit.ttlInSeconds, 1)} seconds.` });
      }
    }
  };
}

export const byAddress: KeyOf = (request) => `ip:${request.ip}`;
export const byEmail: KeyOf = (request) =>
  `email:${String((request.body as { email?: unknown } | undefined)?.email ?? '').trim().toLowerCase()}`;
