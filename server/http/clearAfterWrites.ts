/**
 * What a process keeps in memory about the database (the signed-in users, the list pages) is
 * emptied by any API call that may have written, before that call's answer is sent: the caller's
 * next request reads the database again, whatever the notification from the database is doing.
 */
import type { FastifyInstance } from 'fastify';

const READ_ONLY_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function clearAfterWrites(app: FastifyInstance, kept: { clear(): void }): void {
  // Callback style: every request passes here, and an async hook costs a promise each time.
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (!READ_ONLY_METHODS.has(request.method) && request.routeOptions.url?.startsWith('/api/')) kept.clear();
    done(null, payload);
  });
}
