/**
 * The admin API's webhook paths (`/__sim/webhooks…`), standing in for the Webhooks settings of
 * Meta's App Dashboard:
 *
 * - `GET webhooks`: the callback's state (none | verifying | verified | refused), its URL, how many
 *   deliveries were made, and every ad account's subscriptions
 * - `POST webhooks {callback_url, app_secret, verify_token}`: takes a callback (loopback only) after
 *   the `hub.challenge` handshake, which runs at once: 202, then GET says verified or refused
 * - `DELETE webhooks`: no callback (nothing is sent)
 * - `GET webhooks/deliveries`: the kept deliveries, newest last · `POST webhooks/deliveries/{id}/resend`
 */
import type { GraphAnswer } from './answers';
import { subscriptionView, type SubscriptionBook } from './subscriptions';
import { settingsProblem, type WebhookSender } from './webhooks';

export interface WebhookAdminContext {
  webhooks?: WebhookSender;
  subscriptions?: SubscriptionBook;
}

const json = (status: number, value: unknown): GraphAnswer => ({ status, body: value });

export function webhookAdminAnswer(
  target: WebhookAdminContext,
  method: string,
  path: string,
  input: Record<string, unknown>,
): GraphAnswer | undefined {
  const { webhooks, subscriptions } = target;
  if (!webhooks || !subscriptions || !path.startsWith('webhooks')) return undefined;
  if (path === 'webhooks' && method === 'GET')
    return json(200, { ...webhooks.view(), subscriptions: subscriptions.list().map(subscriptionView) });
  if (path === 'webhooks' && method === 'DELETE') {
    webhooks.clear();
    return json(200, webhooks.view());
  }
  if (path === 'webhooks' && method === 'POST') {
    const settings = {
      callbackUrl: String(input.callback_url ?? ''),
      appSecret: String(input.app_secret ?? ''),
      verifyToken: String(input.verify_token ?? ''),
    };
    const problem = settingsProblem(settings);
    if (problem) return json(400, { detail: problem });
    const verifying = webhooks.configure(settings);
    verifying.catch(() => undefined); // the refusal is the state GET answers
    return json(202, webhooks.view());
  }
  if (path === 'webhooks/deliveries' && method === 'GET') return json(200, webhooks.deliveries);
  const resend = /^webhooks\/deliveries\/(\d+)\/resend$/.exec(path);
  if (resend && method === 'POST')
    return webhooks.resend(Number(resend[1]))
      ? json(200, { resent: Number(resend[1]) })
      : json(404, { detail: 'No such delivery, or no callback' });
  return json(404, { detail: 'Unknown simulator admin path' });
}
