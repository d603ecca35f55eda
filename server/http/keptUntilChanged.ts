/**
 * What a process keeps in memory about the database (the signed-in users) is
 * emptied by every change that could make it wrong:
 * - any API call that may have written (every method but GET, HEAD and OPTIONS, and the GET routes
 *   the contract has write, marked `config: { writes: true }`) empties it before that call's answer
 *   is sent, so the caller's next request reads the database again, whatever the notification is doing;
 * - a NOTIFY on `channel` (sent by database triggers when a change commits, whoever made it)
 *   empties it in every process;
 * - while that channel cannot be heard, it keeps nothing (`setListening(false)`).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A GET that changes data (the contract has a few): it empties what is kept, like a POST. */
    writes?: boolean;
  }
}

export interface KeptInMemory {
  clear(): void;
  setListening(listening: boolean): void;
}

const READ_ONLY_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const mayWrite = (request: FastifyRequest) =>
  request.routeOptions.config.writes === true || !READ_ONLY_METHODS.has(request.method);

export async function keepUntilChanged(app: FastifyInstance, channel: string, kept: KeptInMemory): Promise<void> {
  // Callback style: every request passes here, and an async hook costs a promise each time.
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (mayWrite(request) && request.routeOptions.url?.startsWith('/api/')) kept.clear();
    done(null, payload);
  });
  const stopListening = await app.dbh.listen(
    channel,
    () => kept.clear(),
    (listening) => kept.setListening(listening),
  );
  app.addHook('onClose', () => stopListening());
}
