/** The impact page of a budget rule: the daily budget added and removed, and each change with its cost per lead around it. */
import { screen, within } from '@testing-library/react';
import { beforeEach, expect, it } from 'vitest';
import type { ImpactReport } from '../../../../shared/impact';
import { paths } from '../../../../src/providers/apiPaths';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderApp, signIn, signOut } from '../../../support/renderApp';
import { withAccesses } from '../../../support/users';

const server = setupMswServer();

const report: ImpactReport = {
  scope: { kind: 'rule', id: 5, name: 'Scale cheap ad sets' },
  days: 7,
  from: '2026-11-18T12:00:00.000Z',
  to: '2026-11-25T12:00:00.000Z',
  currency: 'USD',
  totals: {
    turn_offs: 0,
    revives: 0,
    undos: 0,
    spend_avoided: 0,
    false_pauses: 0,
    leads_brought_back: 0,
    budget_added: 50,
    budget_removed: 100,
  },
  by_day: [],
  pauses: [],
  budget_changes: [
    {
      at: '2026-11-20T06:00:30.000Z',
      rule_id: 5,
      rule_name: 'Scale cheap ad sets',
      folder_name: 'Harbor Wealth',
      action: 'raise_budget',
      object_type: 'campaign',
      object_id: 'c1',
      name: 'EDM Spring Webinar',
      before: 100,
      after: 150,
      daily_delta: 50,
      cpl_before: 40,
      cpl_after: 20,
    },
    {
      at: '2026-11-20T07:00:30.000Z',
      rule_id: 5,
      rule_name: 'Scale cheap ad sets',
      folder_name: 'Harbor Wealth',
      action: 'lower_budget',
      object_type: 'adset',
      object_id: 's1',
      name: 'Autumn ad set',
      before: 200,
      after: 100,
      daily_delta: -100,
      cpl_before: null,
      cpl_after: null,
    },
  ],
  method: ['Budget added and removed sum the daily budget each done budget change added or removed.'],
};

beforeEach(() => {
  signOut();
  server.use(http.get(paths.impact, () => HttpResponse.json(report)));
  signIn(withAccesses('view_logs'));
});

it('shows the budget added and removed and each change with its cost per lead before → after', async () => {
  renderApp('/impact?scope=rule&id=5&days=7');
  const section = await screen.findByRole('region', { name: 'Budget changes' });
  expect(screen.getByText('Daily budget added').nextSibling).toHaveTextContent('+$50.00');
  expect(screen.getByText('Daily budget removed').nextSibling).toHaveTextContent('−$100.00');
  const raise = within(section).getByTestId('impact-budget-c1');
  expect(raise).toHaveTextContent('EDM Spring Webinar');
  expect(raise).toHaveTextContent('$100.00 → $150.00');
  expect(raise).toHaveTextContent('+$50.00');
  expect(raise).toHaveTextContent('$40.00 → $20.00');
  expect(within(section).getByTestId('impact-budget-s1')).toHaveTextContent('N/A → N/A');
});
