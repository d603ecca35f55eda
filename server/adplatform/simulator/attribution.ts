/**
 * Attribution windows (`action_attribution_windows`): each lead is credited to a click or a view of
 * the ad, some time before it happened, drawn by hash from (ad id, lead number):
 *
 * - 15 % follow a view within a day (`1d_view`);
 * - 85 % follow a click: 70 % of those within a day (`1d_click`), the rest within 7 days.
 *
 * The default count (an action's `value`) is Meta's default setting, 7-day click or 1-day view, which
 * holds every lead; `7d_click` and `28d_click` are the click-through leads, `1d_ev` none. 7d_view and
 * 28d_view are accepted and, as on Graph since January 2026, no longer returned.
 */
import { unitHash } from './lag';

export const SIMULATED_WINDOWS = ['1d_click', '7d_click', '28d_click', '1d_view', 'default'] as const;
export type SimulatedWindow = (typeof SIMULATED_WINDOWS)[number];
/** Accepted, answered with nothing (Meta stopped returning them on 12 January 2026). */
export const RETIRED_WINDOWS = ['7d_view', '28d_view'] as const;

const VIEW_SHARE = 0.15;
const SAME_DAY_CLICK_SHARE = 0.7;

export interface WindowCounts {
  onsite: Record<SimulatedWindow, number>;
  website: Record<SimulatedWindow, number>;
}

const empty = (): Record<SimulatedWindow, number> => ({
  '1d_click': 0,
  '7d_click': 0,
  '28d_click': 0,
  '1d_view': 0,
  default: 0,
});

export const emptyWindowCounts = (): WindowCounts => ({ onsite: empty(), website: empty() });

/** Counts one lead into the windows that credit it. */
export function countLead(counts: WindowCounts, adId: string, k: number, website: boolean): void {
  const into = website ? counts.website : counts.onsite;
  into.default += 1;
  if (unitHash(`view:${adId}:${k}`) < VIEW_SHARE) {
    into['1d_view'] += 1;
    return;
  }
  into['7d_click'] += 1;
  into['28d_click'] += 1;
  if (unitHash(`click:${adId}:${k}`) < SAME_DAY_CLICK_SHARE) into['1d_click'] += 1;
}

export function addWindowCounts(a: WindowCounts, b: WindowCounts): WindowCounts {
  const sum = (x: Record<SimulatedWindow, number>, y: Record<SimulatedWindow, number>) => {
    const out = empty();
    for (const window of SIMULATED_WINDOWS) out[window] = x[window] + y[window];
    return out;
  };
  return { onsite: sum(a.onsite, b.onsite), website: sum(a.website, b.website) };
}
