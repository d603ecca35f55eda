/**
 * `action_breakdowns=action_destination`: each action split by where it took people — the ad
 * account's Facebook Page (its lead forms) or its website (pixel leads, outbound link clicks).
 */
import { pageIdOf, websiteOf } from './assets';
import type { Totals } from './delivery';
import type { SimAccount } from './world';

export interface DestinationAction {
  action_type: string;
  action_destination: string;
  value: string;
}

/** Which destination an action of a row went to: the Page, or the website. */
export type Destination = 'page' | 'website';

/** The row's actions per destination, in Graph's order, leaving out what is zero. */
export function actionsByDestination(
  t: Totals,
  account: SimAccount,
): { actions: DestinationAction[]; cost_per_action_type: DestinationAction[] } | undefined {
  const where: Record<Destination, string> = { page: pageIdOf(account.accountId), website: websiteOf(account) };
  const counts: [string, Destination, number][] = [
    ['link_click', 'page', t.linkClicks - t.outboundClicks],
    ['link_click', 'website', t.outboundClicks],
    ['lead', 'page', t.onsiteLeads],
    ['lead', 'website', t.websiteLeads],
    ['onsite_conversion.lead_grouped', 'page', t.onsiteLeads],
    ['offsite_conversion.fb_pixel_lead', 'website', t.websiteLeads],
  ];
  const actions = counts
    .filter(([, , n]) => n > 0)
    .map(([type, destination, n]) => ({ action_type: type, action_destination: where[destination], value: String(n) }));
  if (!actions.length) return undefined;
  return {
    actions,
    cost_per_action_type: actions.map((a) => ({ ...a, value: (t.spend / Number(a.value)).toFixed(6) })),
  };
}

/** The destination an action entry names, or undefined when the row is not broken down by destination. */
export function destinationOf(entry: Record<string, string>, account: SimAccount): Destination | undefined {
  if (entry.action_destination === undefined) return undefined;
  return entry.action_destination === websiteOf(account) ? 'website' : 'page';
}
