/**
 * Sending one message to a Slack-compatible incoming webhook: a JSON POST of `{text, blocks}`
 * (Slack's incoming-webhook format; Mattermost, Rocket.Chat and Discord's /slack endpoint accept
 * it too). The address is checked first (addressPolicy.ts) and the connection goes to the address
 * checked — the host name stays the TLS server name and the Host header. Resolving, connecting and
 * the answer's status all fit in one deadline; the answer's body is never read (nor kept), there
 * are no redirects, and an error never repeats the URL, whose path is the webhook's secret.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { type AddressPolicy, type CheckedDestination, checkDestination, RefusedDestination } from './addressPolicy';

/** A Slack message: `text` is the fallback (notifications, plain clients), `blocks` the layout. */
export interface WebhookMessage {
  text: string;
  blocks?: Record<string, unknown>[];
}

/** Posts the message; answers the remote's 2xx status, or throws WebhookError / RefusedDestination. */
export type SendWebhook = (url: string, message: WebhookMessage) => Promise<{ answerCode: number }>;

export class WebhookError extends Error {
  constructor(
    message: string,
    /** The remote's HTTP status, when it answered. */
    readonly answerCode?: number,
  ) {
    super(message);
  }
}

/** Every lookup of this connection answers the checked address (Node asks for one or for all). */
const pinnedLookup =
  ({ address, family }: CheckedDestination): LookupFunction =>
  (_host, options, callback) => {
    if (options.all)
      (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };

function post(checked: CheckedDestination, body: string, signal: AbortSignal): Promise<number> {
  return new Promise((resolve, reject) => {
    const transport = checked.url.protocol === 'https:' ? https : http;
    const request = transport.request(
      checked.url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        signal,
        agent: false, // one connection per post, never one pooled under the name
        lookup: pinnedLookup(checked),
      },
      (response) => {
        resolve(response.statusCode ?? 0);
        response.destroy(); // the status is all that is kept
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

export function createWebhookSender({
  timeoutMs = 10_000,
  policy,
}: {
  timeoutMs?: number;
  policy: AddressPolicy;
}): SendWebhook {
  return async (url, message) => {
    const signal = AbortSignal.timeout(timeoutMs);
    const deadline = new Promise<never>((_, reject) =>
      signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
    );
    let answerCode: number;
    try {
      const checked = await Promise.race([checkDestination(url, policy), deadline]);
      answerCode = await Promise.race([post(checked, JSON.stringify(message), signal), deadline]);
    } catch (error) {
      if (error instanceof RefusedDestination) throw error;
      throw new WebhookError(
        signal.aborted
          ? `no answer within ${timeoutMs / 1000} s`
          : `the webhook could not be reached (${codeOf(error)})`,
      );
    }
    if (answerCode < 200 || answerCode >= 300) throw new WebhookError(`the webhook answered ${answerCode}`, answerCode);
    return { answerCode };
  };
}

/** A network error's code (ECONNREFUSED…), which says what went wrong without the address. */
const codeOf = (error: unknown) => (error as { code?: string }).code ?? 'network error';
