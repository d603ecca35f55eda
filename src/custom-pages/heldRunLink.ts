/**
 * A held run's page as the alerts link to it (/edit-rule/{rule}?run={run}: the run open, Approve and
 * Dismiss under it). A signed-out person who opens such a link is sent to the login screen and,
 * once signed in, brought back to it; every other sign-in lands on / (docs/screens.md, Login).
 */

/** The held run's address to return to, from the location state react-admin gives the login screen; else null. */
export function heldRunReturn(state: unknown): string | null {
  const from = (state ?? {}) as { nextPathname?: unknown; nextSearch?: unknown };
  const path = typeof from.nextPathname === 'string' ? from.nextPathname : '';
  if (!/^\/edit-rule\/\d{1,12}$/.test(path)) return null;
  const run = new URLSearchParams(typeof from.nextSearch === 'string' ? from.nextSearch : '').get('run');
  return run && /^\d{1,12}$/.test(run) ? `${path}?run=${run}` : null;
}
