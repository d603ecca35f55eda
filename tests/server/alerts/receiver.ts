/** A local Slack-compatible incoming-webhook endpoint standing in for Slack in the alert tests. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookDestinations } from '../../../server/alerts/destinations';
import { createWebhookSender, type WebhookMessage } from '../../../server/alerts/webhook';
import type { CapturingMailer } from '../engine/support';

/** Records each JSON body it accepts; answers with the next queued status (200 when none). */
export class WebhookReceiver {
  received: { path: string; body: WebhookMessage }[] = [];
  statuses: number[] = [];
  private server: Server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      const status = this.statuses.shift() ?? 200;
      if (status === 200) this.received.push({ path: request.url ?? '', body: JSON.parse(raw) });
      response.writeHead(status, { 'content-type': 'text/plain' });
      response.end(status === 200 ? 'ok' : 'invalid_token');
    });
  });

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The URL of a message's action button (the alert's link), if it has one. */
export const buttonUrl = (message: WebhookMessage) =>
  (message.blocks?.find((b) => b.type === 'actions') as { elements: { url: string }[] } | undefined)?.elements[0]?.url;

/** The rule engine's alert settings: mail to ops caught by `mailer`, webhooks posted to `destinations`. */
export const alertSettings = (mailer: CapturingMailer, destinations: WebhookDestinations) => ({
  mailer,
  recipients: ['ops@example.com'],
  publicUrl: 'http://console.test',
  webhooks: { send: createWebhookSender({ timeoutMs: 5_000 }), destinations },
});
