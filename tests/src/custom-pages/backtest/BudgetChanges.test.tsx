/**
 * "Try on history" of a budget rule: the result shows the daily budget it would have added and
 * removed, the ceilings it met, that budgets start as they are now, and each change hour by hour.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, expect, it } from 'vitest';
import type { BacktestJob, BacktestResult } from '../../../../shared/backtest';
import { paths } from '../../../../src/providers/apiPaths';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderApp, signIn, signOut } from '../../../support/renderApp';
import { withAccesses } from '../../../support/users';
import { rule, timezones, uncheckedAccount } from '../../fixtures/rules';

const server = setupMswServer();

const result: BacktestResult = {
  rule: { id: 5, name: 'Scale cheap ad sets' },
  account: { ad_account_id: 'act_1', account_name: 'Harbor Wealth', currency: 'USD' },
  from: '2026-11-19T00:00:00.000Z',
  to: '2026-11-26T00:00:00.000Z',
  days: 7,
  timezone: 'UTC',
  slots: 168,
  slots_without_data: 0,
  history: { first: '2026-10-27', last: '2026-11-25', settled_share: 0 },
  totals: { pauses: 0, held: 0, converters_paused: 0, spend_stopped: 0, leads_lost: 0, revives: 0 },
  by_day: [],
  results: [],
  results_count: 0,
  results_listed: 0,
  budget_changes: [
    {
      at: '2026-11-20T06:00:00.000Z',
      action: 'raise_budget',
      object_id: 's1',
      object_type: 'adset',
      name: 'Spring ad set',
      campaign_id: 'c1',
      campaign_name: 'EDM Spring Webinar',
      before: 120,
      asked: 144,
      allowed: 143.99,
      daily_delta: 23.99,
      cut: '+20% asked, +19% allowed: settling (a significant change 1 h ago)',
      cut_by: 'settling',
      held: false,
      conditions: [{ text: 'CPL (today) < 30', shown: 'CPL (today) $10.00 < $30.00 ✓', result: true }],
      reason: {},
    },
  ],
  budget_changes_count: 1,
  ceilings_met: { settling: 1, growth_24h: 5 },
  budget_totals: { changes: 1, held: 0, added: 23.99, removed: 0, objects: 1 },
  budgets_from: 'now',
};
const done: BacktestJob = { id: 'j1', state: 'done', progress: { done: 168, total: 168 }, result, error: null };

let sent: unknown[];

beforeEach(() => {
  signOut();
  sent = [];
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
        settled_readings: 0,
      }),
    ),
    http.post(paths.backtests, async ({ request }) => {
      sent.push(await request.json());
      return HttpResponse.json(done, { status: 202 });
    }),
    http.get(paths.backtest('j1'), () => HttpResponse.json(done)),
  );
  signIn(withAccesses('read_rules', 'create_update_rules'));
});

it('shows the budget changes a budget rule would have made, the ceilings it met and the money', async () => {
  renderApp('/edit-rule/5');
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Try on history' }));
  const dialog = await screen.findByRole('dialog', { name: 'Try this rule on history' });
  await user.click(within(dialog).getByRole('button', { name: 'Run' }));
  const section = await within(dialog).findByRole('region', { name: 'Budget changes' });
  expect(within(section).getByText('Daily budget added').nextSibling).toHaveTextContent('+$23.99');
  expect(within(section).getByText('Daily budget removed').nextSibling).toHaveTextContent('−$0.00');
  expect(
    within(section).getByText('The history keeps no budgets: budgets as they are now, changed only by this rule.'),
  ).toBeInTheDocument();
  expect(within(section).getByText('settling: 1')).toBeInTheDocument();
  expect(within(section).getByText('24 h ceiling: 5')).toBeInTheDocument();
  const row = within(section).getByTestId('backtest-budget-s1');
  expect(row).toHaveTextContent('Spring ad set');
  expect(row).toHaveTextContent('$120.00 → $143.99 a day');
  expect(row).toHaveTextContent('+20% asked, +19% allowed: settling (a significant change 1 h ago)');
  expect(row).toHaveTextContent('+$23.99');
  expect(row).toHaveTextContent('CPL (today) $10.00 < $30.00 ✓');
  // The editor hands over what it holds, unsaved edits included (this rule: no conditions yet).
  expect(sent[0]).toHaveProperty('rule.conditions', null);
  expect(sent[0]).toHaveProperty('rule.action', null);
});
