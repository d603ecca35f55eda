/**
 * The LISTEN connection on PostgreSQL behind a TCP proxy that goes silent — it stops forwarding
 * in both directions without closing anything, as a half-open link or a stuck firewall does. No
 * error ever arrives; the heartbeat notices within seconds, the processes stop keeping anything,
 * and a new connection is made once the way is clear.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { HEARTBEAT_MS, HEARTBEAT_TIMEOUT_MS, listenOnPostgres } from '../../../server/db/listener';
import { waitUntil } from '../../support/waitUntil';

/** A TCP proxy to PostgreSQL whose current connections can be made to go silent. */
async function silencingProxy(target: URL) {
  const links: { client: Socket; server: Socket; silent: boolean }[] = [];
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    const link = { client, server: upstream, silent: false };
    links.push(link);
    client.on('data', (chunk) => link.silent || upstream.write(chunk));
    upstream.on('data', (chunk) => link.silent || client.write(chunk));
    const close = () => {
      if (link.silent) return; // a silent link never tells either side anything
      client.destroy();
      upstream.destroy();
    };
    client.on('close', close);
    upstream.on('close', close);
    client.on('error', () => undefined);
    upstream.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as { port: number }).port);
  return {
    url: url.toString(),
    silenceAll: () => {
      for (const link of links) link.silent = true;
    },
    close: async () => {
      for (const link of links) {
        link.client.destroy();
        link.server.destroy();
      }
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('LISTEN on PostgreSQL', () => {
  const adminUrl = new URL(inject('postgresAdminUrl'));
  let proxy: Awaited<ReturnType<typeof silencingProxy>>;
  let notifier: pg.Client;
  beforeAll(async () => {
    proxy = await silencingProxy(adminUrl);
    notifier = new pg.Client({ connectionString: adminUrl.toString() });
    await notifier.connect();
  });
  afterAll(async () => {
    await notifier.end();
    await proxy.close();
  });

  it('notices a connection gone silent within seconds, keeps nothing meanwhile, and listens again', async () => {
    const channel = `silent_${process.pid}_${Date.now()}`;
    const states: boolean[] = [];
    const heard: string[] = [];
    const stop = await listenOnPostgres(
      proxy.url,
      channel,
      (payload) => heard.push(payload),
      (listening) => states.push(listening),
    );
    try {
      expect(states).toEqual([true]);
      await notifier.query(`select pg_notify($1, 'before')`, [channel]);
      await waitUntil(() => heard.includes('before'), 'the first notification', { timeoutMs: 5_000, intervalMs: 50 });

      proxy.silenceAll();
      const silencedAt = Date.now();
      await waitUntil(() => states.at(-1) === false, 'the silent connection to be noticed', {
        timeoutMs: 15_000,
        intervalMs: 50,
      });
      const noticedAfter = Date.now() - silencedAt;
      expect(noticedAfter).toBeLessThanOrEqual(HEARTBEAT_MS + HEARTBEAT_TIMEOUT_MS + 1_000);

      // New connections pass the proxy: listening resumes and notifications arrive again.
      await waitUntil(() => states.at(-1) === true, 'listening again', { timeoutMs: 15_000, intervalMs: 50 });
      await notifier.query(`select pg_notify($1, 'after')`, [channel]);
      await waitUntil(() => heard.includes('after'), 'a notification after reconnecting', {
        timeoutMs: 5_000,
        intervalMs: 50,
      });
    } finally {
      await stop();
    }
    expect(states.at(-1)).toBe(false);
  });
});
