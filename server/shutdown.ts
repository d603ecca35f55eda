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

export function closeOnSignals(parts: Drainable, timeoutSeconds: number): void {
  const log = parts.app.log;
  closeWithGrace(
    {
      delay: timeoutSeconds * 1000,
      logger: { error: (message: unknown) => log.error(message) },
    },
    async ({ signal, err }) => {
      if (err) log.error({ err }, 'shutting down after an uncaught error');
      else log.info(`${signal ?? 'exit'}: finishing requests and jobs, then stopping`);
      await parts.app.close();
      await parts.services.stop();
      await parts.dbh.close();
      log.info('stopped');
    },
  );
}
