/**
 * The app's webhook callback as Meta keeps it: a URL, the app secret that signs each delivery
 * (`X-Hub-Signature-256: sha256=<HMAC-SHA256 of the body>`) and the verify token of the
 * `hub.challenge` handshake Meta makes before it accepts a callback. Deliveries are POSTed as JSON,
 * retried a few times when the receiver does not answer 2xx, and kept (the last MAX_KEPT) so a
 * test can look at them or send one again, as Meta redelivers.
 *
 * Only a loopback address is accepted: the simulator posts to the product beside it, never out.
 */
import { createHmac, randomBytes } from 'node:crypto';

export interface WebhookSettings {
  callbackUrl: string;
  appSecret: string;
  verifyToken: string;
}

export interface WebhookDelivery {
  id: number;
  /** The simulated moment it was sent for (ISO 8601). */
  at: string;
  body: string;
  /** The receiver's last answer; null while none came. */
  status: number | null;
  attempts: number;
  error?: string;
  /** performance.now() when it was first posted and when it was answered 2xx (benches time the receiver by it). */
  postedMs: number;
  answeredMs?: number;
}

export type WebhookState = 'none' | 'verifying' | 'verified' | 'refused';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
const MAX_KEPT = 1000;
const RETRY_DELAYS_MS = [250, 1000];
const ANSWER_TIMEOUT_MS = 10_000;

export const signatureOf = (body: string, secret: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** The settings' problem in words (the URL is not on a loopback address, a secret is missing); undefined when fine. */
export function settingsProblem(settings: WebhookSettings): string | undefined {
  try {
    loopbackUrl(settings.callbackUrl);
  } catch (error) {
    return (error as Error).message;
  }
  if (!settings.appSecret || !settings.verifyToken) return 'app_secret and verify_token are required';
  return undefined;
}

function loopbackUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('callback_url must be a URL');
  }
  if (!['http:', 'https:'].includes(url.protocol) || !LOOPBACK.has(url.hostname))
    throw new Error('callback_url must be on a loopback address (127.0.0.1, localhost or ::1)');
  return url;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class WebhookSender {
  private settings: WebhookSettings | undefined;
  state: WebhookState = 'none';
  problem: string | undefined;
  readonly deliveries: WebhookDelivery[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private nextId = 1;

  /**
   * Takes a callback after Meta's handshake: a GET with hub.mode=subscribe, hub.challenge and
   * hub.verify_token must be answered 200 with the challenge. Refused otherwise (the error says why).
   */
  async configure(settings: WebhookSettings): Promise<void> {
    const invalid = settingsProblem(settings);
    if (invalid) throw new Error(invalid);
    const url = loopbackUrl(settings.callbackUrl);
    this.settings = undefined;
    this.state = 'verifying';
    this.problem = undefined;
    const challenge = randomBytes(8).toString('hex');
    url.searchParams.set('hub.mode', 'subscribe');
    url.searchParams.set('hub.challenge', challenge);
    url.searchParams.set('hub.verify_token', settings.verifyToken);
    try {
      const answer = await fetch(url, { signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS) });
      const text = await answer.text();
      if (answer.status !== 200 || text.trim() !== challenge)
        throw new Error(`the callback answered ${answer.status} without the challenge`);
    } catch (error) {
      this.state = 'refused';
      this.problem = `The callback URL could not be validated: ${error instanceof Error ? error.message : String(error)}`;
      throw new Error(this.problem);
    }
    this.settings = settings;
    this.state = 'verified';
  }

  /** Where deliveries go; undefined until a callback passed the handshake. */
  get callbackUrl(): string | undefined {
    return this.settings?.callbackUrl;
  }

  clear(): void {
    this.settings = undefined;
    this.state = 'none';
  }

  /** Posts a payload (signed) to the callback; nothing without a verified callback. */
  send(payload: unknown, at: number): void {
    if (!this.settings) return;
    const delivery: WebhookDelivery = {
      id: this.nextId++,
      at: new Date(at).toISOString(),
      body: JSON.stringify(payload),
      status: null,
      attempts: 0,
      postedMs: performance.now(),
    };
    this.deliveries.push(delivery);
    if (this.deliveries.length > MAX_KEPT) this.deliveries.splice(0, this.deliveries.length - MAX_KEPT);
    this.track(this.deliver(delivery, this.settings));
  }

  /** Sends a kept delivery again, byte for byte (Meta redelivers what it could not hand over, and sometimes twice). */
  resend(id: number): boolean {
    const delivery = this.deliveries.find((d) => d.id === id);
    if (!delivery || !this.settings) return false;
    this.track(this.deliver(delivery, this.settings));
    return true;
  }

  /** Resolves once no delivery is on its way. */
  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.all([...this.inFlight]);
  }

  private track(promise: Promise<void>) {
    this.inFlight.add(promise);
    void promise.finally(() => this.inFlight.delete(promise));
  }

  private async deliver(delivery: WebhookDelivery, settings: WebhookSettings): Promise<void> {
    for (let attempt = 0; ; attempt += 1) {
      delivery.attempts += 1;
      try {
        const answer = await fetch(settings.callbackUrl, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-hub-signature-256': signatureOf(delivery.body, settings.appSecret),
          },
          body: delivery.body,
          signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
        });
        await answer.arrayBuffer();
        delivery.status = answer.status;
        delivery.error = undefined;
        if (answer.ok) {
          delivery.answeredMs = performance.now();
          return;
        }
      } catch (error) {
        delivery.error = error instanceof Error ? error.message : String(error);
      }
      const delay = RETRY_DELAYS_MS[attempt];
      if (delay === undefined) return;
      await wait(delay);
    }
  }

  view(): Record<string, unknown> {
    return {
      state: this.state,
      callback_url: this.settings?.callbackUrl ?? null,
      ...(this.problem ? { problem: this.problem } : {}),
      deliveries: this.deliveries.length,
    };
  }
}
