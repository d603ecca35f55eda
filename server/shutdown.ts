/**
 * Graceful shutdown on SIGTERM / SIGINT (and the other termination signals close-with-grace
 * watches): the HTTP server stops accepting connections and lets the requests in flight finish,
 * then background work stops (running jobs finish, or are failed back to the queue for another
 * worker), then the database closes, and the process exits 0. A second signal, or a drain longer
 * than SHUTDOWN_TIMEOUT_SECONDS, ends it at once with exit code 1. An uncaught error takes the
 * same path and exits 1.
 */
import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';

export interface Drainable {
  /** The HTTP server (Fastify's close: stop listening, finish in-flight requests). */
  app: FastifyInstance;
  /** Background work and the ad platform. */
  services: { stop(): Promise<void> };
  /** The database, closed last. */
  dbh: { close(): Promise<void> };
}

/**
 * While the server closes, answers say `Connection: close`, so a keep-alive connection whose
 * request was in flight is closed by its client instead of holding the server open.
 */
function closeConnectionsWhenDone(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
}

/** Call before the app listens: it adds hooks to it. */
export function closeOnSignals(parts: Drainable, timeoutSeconds: number): void {
  const log = parts.app.log;
  closeConnectionsWhenDone(parts.app);
  closeWithGrace(
    {
      delay: timeoutSeconds * 1000,
      logger: { error: (message: unknown) => log.error(message) },
    },
    async ({ signal, err }) => {
      if (err) log.error({ err }, 'shutting down after an uncaught error');
      else log.info(`${signal ?? 'exit'}: finishing requests and jobs, then stopping`);
      const started = Date.now();
      const step = async (done: string, run: () => Promise<void>) => {
        await run();
        log.info(`${done} (${Date.now() - started} ms after the signal)`);
      };
      await step('HTTP server closed', () => parts.app.close());
      await step('background work stopped', () => parts.services.stop());
      await step('database closed', () => parts.dbh.close());
    },
  );
}

/**
 * Started by `npm start` (scripts/start.mjs) with an IPC channel: when that parent dies, however it
 * dies (SIGKILL included, which it cannot pass on), the channel closes and the server drains and
 * exits as on SIGTERM instead of holding the port without a parent.
 */
export function stopWithParent(): void {
  if (!process.channel) return;
  process.channel.unref(); // the channel alone must not keep the server alive
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
