/**
 * Sending one message to a Slack-compatible incoming webhook: a JSON POST of `{text, blocks}`
 * (Slack's incoming-webhook format; Mattermost, Rocket.Chat and Discord's /slack endpoint accept
 * it too). An answer other than 2xx, or none within the timeout, is an error; the error never
 * repeats the URL, whose path is the webhook's secret.
 */

/** A Slack message: `text` is the fallback (notifications, plain clients), `blocks` the layout. */
export interface WebhookMessage {
  text: string;
  blocks?: Record<string, unknown>[];
}

export type SendWebhook = (url: string, message: WebhookMessage) => Promise<void>;

export class WebhookError extends Error {}

export function createWebhookSender({ timeoutMs = 10_000 }: { timeoutMs?: number } = {}): SendWebhook {
  return async (url, message) => {
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(message),
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
      });
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      throw new WebhookError(timedOut ? `no answer within ${timeoutMs / 1000} s` : 'the webhook could not be reached');
    }
    const body = (await response.text()).slice(0, 200);
    if (!response.ok) throw new WebhookError(`the webhook answered ${response.status}${body ? `: ${body}` : ''}`);
  };
}
