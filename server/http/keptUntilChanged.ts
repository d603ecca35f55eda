/**
 * What a process keeps in memory about the database (the signed-in users) is
 * emptied by every change that could make it wrong:
 * - any API call that may have written empties it before that call's answer is sent, so the
 *   caller's next request reads the database again, whatever the notification is doing;
 * - a NOTIFY on `channel` (sent by database triggers when a change commits, whoever made it)
 *   empties it in every process;
 * - while that channel cannot be heard, it keeps nothing (`setListening(false)`).
 */
import type { FastifyInstance } from 'fastify';

export interface KeptInMemory {
  clear(): void;
  setListening(listening: boolean): void;
}

const READ_ONLY_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export async function keepUntilChanged(app: FastifyInstance, channel: string, kept: KeptInMemory): Promise<void> {
  // Callback style: every request passes here, and an async hook costs a promise each time.
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (!READ_ONLY_METHODS.has(request.method) && request.routeOptions.url?.startsWith('/api/')) kept.clear();
    done(null, payload);
  });
  const stopListening = await app.dbh.listen(
    channel,
    () => kept.clear(),
    (listening) => kept.setListening(listening),
  );
  app.addHook('onClose', () => stopListening());
}
