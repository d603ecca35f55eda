/**
 * "Try on history" from the rule editor: the backtest runs on the server while the dialog follows
 * its progress, and Cancel stops it.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, expect, it } from 'vitest';
import type { BacktestJob } from '../../../../src/domain/backtest';
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
  renderApp('/edit-rule/5');
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Try on history' }));
  const dialog = await screen.findByRole('dialog', { name: 'Try this rule on history' });
  expect(await within(dialog).findByText(/History of act_1: 2026-10-27 to 2026-11-25, 12 ads/)).toBeInTheDocument();
  await user.click(within(dialog).getByRole('button', { name: 'Run' }));
  expect(await within(dialog).findByText('Replaying 3 of 10 scheduled hours…')).toBeInTheDocument();
  await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  expect(await within(dialog).findByText('The backtest was cancelled.')).toBeInTheDocument();
  const pollsWhenCancelled = polls;
  await new Promise((resolve) => setTimeout(resolve, 1000));
  expect(polls).toBe(pollsWhenCancelled); // a finished job is not asked about again
  expect(within(dialog).queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
});

it('fills in the missing hours of an account that already has history, on demand', async () => {
  renderApp('/edit-rule/5');
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Try on history' }));
  const dialog = await screen.findByRole('dialog', { name: 'Try this rule on history' });
  await within(dialog).findByText(/History of act_1/);
  await user.click(within(dialog).getByRole('button', { name: 'Fill in missing hours from the platform' }));
  await expect.poll(() => filled).toEqual([{ folder: rule(5).folder.id }]);
});
