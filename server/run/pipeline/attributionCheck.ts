/**
 * Attribution check: a rule stored on an attribution window Meta no longer reports (7d_view,
 * 28d_view, since 12 January 2026) cannot count its leads, so its run fails, saying why and what to
 * choose, before anything is read from the platform. Never a silent fallback to another window:
 * thresholds set for one window would judge another's counts. The API no longer saves such a window
 * (shared/judging.ts); this catches one stored before.
 */
import { removedWindowMessage } from '../../../shared/judging';
import { live, type InBatch } from './batch';

export function failRemovedWindows(work: InBatch[]): void {
  for (const item of live(work)) {
    const message = removedWindowMessage(item.rule.judging?.attribution_window);
    if (message) item.error = new Error(`The rule cannot count its leads. ${message} in its judging settings`);
  }
}
