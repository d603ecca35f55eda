/**
 * A local Slack-compatible incoming-webhook endpoint standing in for Slack in the alert tests, and
 * the delivery queue posting to it. Every test's traffic stays on loopback: the receiver listens on
 * 127.0.0.1, and the address policy the tests post with allows that address and port by name (the
 * default policy refuses both), with plain http and a resolver that answers 127.0.0.1 for any name.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { vi } from 'vitest';
import type { AddressPolicy } from '../../../server/alerts/addressPolicy';
import { createDeliveryQueue, type DeliveryQueue } from '../../../server/alerts/deliveryQueue';
import type { WebhookDestinations } from '../../../server/alerts/destinations';
import { createWebhookSender, type WebhookMessage } from '../../../server/alerts/webhook';
import type { DbHandle } from '../../../server/db/client';
import { type CapturingMailer, quietLog } from '../run/support';

/** The host name the tests' webhooks are given; the test resolver answers 127.0.0.1 for it. */
export const HOOK_HOST = 'hooks.example.test';

/** Records each JSON body it accepts; answers with the next queued status (200 when none). */
export class WebhookReceiver {
  received: { path: string; host: string; body: WebhookMessage }[] = [];
  statuses: number[] = [];
  /** Never answer: requests are held open (a destination that never answers). */
  hang = false;
  /** Requests held open, not answered. */
  held: ServerResponse[] = [];
  private arrivals: (() => void)[] = [];
  private server: Server = createServer((request, response) => this.answer(request, response));

  private answer(request: IncomingMessage, response: ServerResponse) {
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      for (const arrived of this.arrivals.splice(0)) arrived();
      if (this.hang) {
        this.held.push(response);
        return;
      }
      const status = this.statuses.shift() ?? 200;
      if (status === 200)
        this.received.push({ path: request.url ?? '', host: request.headers.host ?? '', body: JSON.parse(raw) });
      response.writeHead(status, { 'content-type': 'text/plain' });
      response.end(status === 200 ? 'ok' : 'invalid_token');
    });
  }

  /** Answers the requests held open. */
  release(): void {
    for (const response of this.held.splice(0)) response.end();
  }

  /** Resolves when the next request has arrived (answered or held). */
  nextRequest(): Promise<void> {
    return new Promise((resolve) => this.arrivals.push(resolve));
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path: string, host = '127.0.0.1'): string {
    return `http://${host}:${this.port}${path}`;
  }

  /** The policy that lets a test post here, and only here. */
  policy(): AddressPolicy {
    return {
      hosts: [`127.0.0.1:${this.port}`, `${HOOK_HOST}:${this.port}`],
      resolve: async () => ['127.0.0.1'],
      plainHttpForTests: true,
    };
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A delivery queue posting under `policy` (retries a second apart), its workers started. */
export async function deliveriesTo(
  dbh: DbHandle,
  destinations: WebhookDestinations,
  policy: AddressPolicy,
  { timeoutMs = 5_000, atOnce = 5 } = {},
): Promise<DeliveryQueue> {
  const queue = createDeliveryQueue({
    dbh,
    destinations,
    send: createWebhookSender({ timeoutMs, policy }),
    log: quietLog,
    atOnce,
    retryLimit: 2,
    retryDelaySeconds: 1,
    pollingIntervalSeconds: 0.5,
  });
  await queue.work();
  return queue;
}

/** One policy allowing every receiver given. */
export const policyFor = (...receivers: WebhookReceiver[]): AddressPolicy => ({
  ...receivers[0]!.policy(),
  hosts: receivers.flatMap((receiver) => receiver.policy().hosts),
});

/** Waits until `check` passes (a delivery is posted by the queue's workers, after the call that queued it). */
export const eventually = (check: () => unknown | Promise<unknown>) =>
  vi.waitFor(check, { timeout: 30_000, interval: 50 });

/** The URL of a message's action button (the alert's link), if it has one. */
export const buttonUrl = (message: WebhookMessage) =>
  (message.blocks?.find((b) => b.type === 'actions') as { elements: { url: string }[] } | undefined)?.elements[0]?.url;

/** The rule engine's alert settings: mail to ops caught by `mailer`, webhooks queued on `deliveries`. */
export const alertSettings = (mailer: CapturingMailer, deliveries: DeliveryQueue) => ({
  mailer,
  recipients: ['ops@example.com'],
  publicUrl: 'http://console.test',
  webhooks: deliveries,
});
