/**
 * LISTEN on PostgreSQL over a connection of its own (a pooled one would be handed to other
 * queries). What the processes keep in memory is only as good as this connection: while it is
 * down they keep nothing (`onListening(false)`). A connection can also die silently — a
 * half-open TCP link, a proxy or firewall that stops forwarding without closing — and then no
 * error ever arrives. So the socket has TCP keep-alive on, and a heartbeat query runs every
 * HEARTBEAT_MS: one unanswered for HEARTBEAT_TIMEOUT_MS counts as lost, the socket is dropped
 * and a new connection is made (with back-off).
 */
import pg from 'pg';

export const HEARTBEAT_MS = 2_000;
export const HEARTBEAT_TIMEOUT_MS = 3_000;

export interface ListenOptions {
  heartbeatMs?: number;
  heartbeatTimeoutMs?: number;
}

export async function listenOnPostgres(
  connectionString: string,
  channel: string,
  onNotify: (payload: string) => void,
  onListening: (listening: boolean) => void,
  options: ListenOptions = {},
): Promise<() => Promise<void>> {
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? HEARTBEAT_TIMEOUT_MS;
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let delayMs = 500;

  const connect = async () => {
    const next = new pg.Client({ connectionString, keepAlive: true, keepAliveInitialDelayMillis: heartbeatMs });
    const lost = (error?: Error) => {
      if (client !== next) return;
      client = undefined;
      clearInterval(heartbeat);
      onListening(false);
      void closeClient(next);
      if (stopped) return;
      console.warn(`PostgreSQL LISTEN ${channel} lost${error ? `: ${error.message}` : ''}; reconnecting`);
      retry = setTimeout(() => void connect(), delayMs);
      delayMs = Math.min(delayMs * 2, 30_000);
    };
    const beat = () => {
      const timeout = setTimeout(
        () => lost(new Error(`no answer to the heartbeat for ${heartbeatTimeoutMs} ms`)),
        heartbeatTimeoutMs,
      ).unref();
      next.query('select 1').then(
        () => clearTimeout(timeout),
        (error: Error) => {
          clearTimeout(timeout);
          lost(error);
        },
      );
    };
    client = next;
    next.on('error', lost);
    next.on('end', () => lost());
    next.on('notification', (message) => onNotify(message.payload ?? ''));
    try {
      const connectTimeout = setTimeout(() => lost(new Error('connecting timed out')), heartbeatTimeoutMs * 2).unref();
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      clearTimeout(connectTimeout);
      if (client !== next || stopped) return;
      delayMs = 500;
      heartbeat = setInterval(beat, heartbeatMs);
      onListening(true);
    } catch (error) {
      lost(error as Error);
    }
  };

  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    clearInterval(heartbeat);
    const current = client;
    client = undefined;
    onListening(false);
    if (current) await closeClient(current);
  };
}

/** end() waits for the server's goodbye, which a silent link never sends: then the socket is dropped. */
async function closeClient(client: pg.Client): Promise<void> {
  const ended = client.end().catch(() => undefined);
  const gaveUp = await Promise.race([
    ended.then(() => false),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 1_000).unref()),
  ]);
  if (gaveUp) (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}
