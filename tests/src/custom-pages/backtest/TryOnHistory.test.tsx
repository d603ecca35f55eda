/**
 * "Try on history" from the rule editor: the backtest runs on the server while the dialog follows
 * its progress, and Cancel stops it.
 */
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, expect, it, vi } from 'vitest';
import type { BacktestJob, BacktestPause, BacktestResult } from '../../../../shared/backtest';
import { paths } from '../../../../src/providers/apiPaths';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderApp, signIn, signOut } from '../../../support/renderApp';
import { withAccesses } from '../../../support/users';
import { rule, timezones, uncheckedAccount } from '../../fixtures/rules';

const server = setupMswServer();
const job = (state: BacktestJob['state'], done: number): BacktestJob => ({
  id: 'j1',
  state,
  progress: { done, total: 10 },
  result: null,
  error: null,
});

const pause = (i: number): BacktestPause => ({
  at: '2026-11-20T15:00:00.000Z',
  object_type: 'ad',
  object_id: `ad_${i}`,
  name: `Webinar ad ${i}`,
  campaign_id: 'c1',
  campaign_name: 'EDM Spring Webinar',
  task: 'spend_cpl_no_leads',
  reason: { Spend: '$70.00 > $50.00', Leads: '0' },
  settled_numbers: false,
  spend_at_pause: 70,
  leads_at_pause: 0,
  spend_after: 0,
  leads_after: 0,
  final_cpl: null,
  verdict: 'stopped_waste',
  revived_at: null,
});
const pauses = (from: number, n: number) => Array.from({ length: n }, (_, i) => pause(from + i));

/** A result of 2,400 pauses of which the first 2,000 are listed; the answer carries the first 100. */
const bigResult: BacktestResult = {
  rule: { id: 5, name: 'Try' },
  account: { ad_account_id: 'act_1', account_name: 'Harbor Wealth', currency: 'USD' },
  from: '2026-11-19T00:00:00.000Z',
  to: '2026-11-26T00:00:00.000Z',
  days: 7,
  timezone: 'UTC',
  slots: 168,
  slots_without_data: 0,
  history: { first: '2026-10-27', last: '2026-11-25', settled_share: 0.5 },
  totals: { pauses: 2400, held: 0, converters_paused: 0, spend_stopped: 0, leads_lost: 0, revives: 0 },
  by_day: [{ date: '2026-11-20', pauses: 2400, converters_paused: 0, spend_stopped: 0 }],
  results: pauses(0, 100),
  results_count: 2400,
  results_listed: 2000,
};

let polls: number;
let filled: unknown[];

beforeEach(() => {
  signOut();
  polls = 0;
  filled = [];
  const empty = { count: 0, next: null, previous: null, results: [] };
  server.use(
    http.get(paths.rule(5), () => HttpResponse.json(rule(5))),
    http.get(paths.ruleTimezones, () => HttpResponse.json(timezones)),
    http.get(paths.ruleRuns(5), () => HttpResponse.json(empty)),
    http.get(paths.ruleExemptions(5), () => HttpResponse.json(empty)),
    http.get(paths.ruleConflicts(5), () => HttpResponse.json([])),
    http.get(paths.accountHealth('act_1'), () => HttpResponse.json(uncheckedAccount)),
    http.get(paths.history, () =>
      HttpResponse.json({
        ad_account_id: 'act_1',
        days: 30,
        ads: 12,
        first: '2026-10-27',
        last: '2026-11-25',
        readings: 100,
        settled_readings: 50,
      }),
    ),
    http.post(paths.backtests, () => HttpResponse.json(job('running', 0), { status: 202 })),
    http.get(paths.backtest('j1'), () => {
      polls += 1;
      return HttpResponse.json(job('running', Math.min(3, polls)));
    }),
    http.delete(paths.backtest('j1'), () => HttpResponse.json(job('cancelled', 3))),
    http.post(paths.historyFill, async ({ request }) => {
      filled.push(await request.json());
      return HttpResponse.json({});
    }),
  );
  signIn(withAccesses('read_rules', 'create_update_rules'));
});

it('follows a running backtest until it is cancelled', async () => {
  // The test's own clock, also moving with real time: after the cancel it is moved past several polls.
  vi.useFakeTimers({ shouldAdvanceTime: true });
  renderApp('/edit-rule/5');
  const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
  await user.click(await screen.findByRole('button', { name: 'Try on history' }));
  const dialog = await screen.findByRole('dialog', { name: 'Try this rule on history' });
  // Named: the rule and its folder, the ad account by its name with its id beside it.
  expect(within(dialog).getByText('“New rule” in Client 1')).toBeInTheDocument();
  expect(
    await within(dialog).findByText(/History of Account 1 \(act_1\): 10\/27\/2026 to 11\/25\/2026, 12 ads/),
  ).toBeInTheDocument();
  await user.click(within(dialog).getByRole('button', { name: 'Run' }));
  expect(await within(dialog).findByText('Replaying 3 of 10 scheduled hours…')).toBeInTheDocument();
  await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  expect(await within(dialog).findByText('The backtest was cancelled.')).toBeInTheDocument();
  const pollsWhenCancelled = polls;
  await act(() => vi.advanceTimersByTimeAsync(2_000)); // five polls' time: any still scheduled has asked
  expect(polls).toBe(pollsWhenCancelled); // a finished job is not asked about again
  expect(within(dialog).queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
});

it('fills in the missing hours of an account that already has history, on demand', async () => {
  renderApp('/edit-rule/5');
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Try on history' }));
  const dialog = await screen.findByRole('dialog', { name: 'Try this rule on history' });
  await within(dialog).findByText(/History of Account 1 \(act_1\)/);
  await user.click(within(dialog).getByRole('button', { name: 'Fill in missing hours from the platform' }));
  await expect.poll(() => filled).toEqual([{ folder: rule(5).folder.id }]);
});

it('lists a big result a page at a time, and says the totals count the pauses not listed', async () => {
  const asked: string[] = [];
  server.use(
    http.get(paths.backtest('j1'), () => HttpResponse.json({ ...job('done', 10), result: bigResult })),
    http.get(paths.backtestPauses('j1'), ({ request }) => {
      const url = new URL(request.url);
      asked.push(url.search);
      const offset = Number(url.searchParams.get('offset'));
      return HttpResponse.json({ count: 2000, next: null, previous: null, results: pauses(offset, 100) });
    }),
  );
  renderApp('/edit-rule/5');
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Try on history' }));
  const dialog = await screen.findByRole('dialog', { name: 'Try this rule on history' });
  await user.click(within(dialog).getByRole('button', { name: 'Run' }));
  const table = await within(dialog).findByRole('table', { name: 'Try this rule on history' });
  expect(within(table).getByText('Webinar ad 0')).toBeInTheDocument();
  expect(
    within(dialog).getByText(
      'The table lists the first 2,000 of 2,400 pauses; the totals and the chart count them all.',
    ),
  ).toBeInTheDocument();
  expect(within(dialog).getByText('1–100 of 2000')).toBeInTheDocument();

  await user.click(within(dialog).getByRole('button', { name: 'Go to next page' }));
  expect(await within(table).findByText('Webinar ad 100')).toBeInTheDocument();
  expect(within(table).queryByText('Webinar ad 0')).not.toBeInTheDocument();
  expect(asked).toEqual(['?limit=100&offset=100']);
});

it('says why a start was refused when too many were started', async () => {
  server.use(
    http.post(paths.backtests, () =>
      HttpResponse.json({ detail: 'Too many backtests started. Try again in 42 seconds.' }, { status: 429 }),
    ),
  );
  renderApp('/edit-rule/5');
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Try on history' }));
  const dialog = await screen.findByRole('dialog', { name: 'Try this rule on history' });
  await within(dialog).findByText(/History of Account 1 \(act_1\)/);
  await user.click(within(dialog).getByRole('button', { name: 'Run' }));
  expect(await within(dialog).findByText('Too many backtests started. Try again in 42 seconds.')).toBeInTheDocument();
  expect(within(dialog).queryByRole('button', { name: 'Fill history from the platform' })).not.toBeInTheDocument();
});
