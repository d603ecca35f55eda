/**
 * Preview of a budget rule: the money line in bold, each planned change (before → allowed a day,
 * asked, the ceiling that cut it, the daily delta), each object's conditions as judged, and Run now
 * offered though nothing would be turned off.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { paths } from '../../../../src/providers/apiPaths';
import { RuleRunActions } from '../../../../src/layout/runs/RuleRunActions';
import type { PreviewResult } from '../../../../shared/ruleRuns';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderWithAdmin, signIn, signOut } from '../../../support/renderApp';
import { withAccesses } from '../../../support/users';

const server = setupMswServer();

const cplUnder = { text: 'CPL (last 7 days) < 30', shown: 'CPL (last 7 days) $21.40 < $30.00', result: true };
const preview: PreviewResult = {
  rule: { id: 5, name: 'Scale cheap leads' },
  account: { ad_account_id: 'act_1', account_name: 'Acme Ads' },
  checked_at: '2026-03-04T10:15:00Z',
  count: 0,
  delivering: 27,
  results: [],
  exempt: [],
  problems: [],
  budget_changes: [
    {
      action: 'raise_budget',
      object_id: '230001',
      object_type: 'adset',
      name: 'Advisers 35-55',
      campaign_id: '110001',
      campaign_name: 'EDM EP-W 2026-03-05 6PM',
      before: 50,
      asked: 75,
      allowed: 60,
      daily_delta: 10,
      cut: '+50% asked, +20% allowed: 24 h ceiling',
      conditions: [cplUnder],
      reason: { Budget: '$50.00 → $60.00 a day' },
    },
    {
      action: 'lower_budget',
      object_id: '230002',
      object_type: 'adset',
      name: 'Retirees',
      campaign_id: '110001',
      campaign_name: 'EDM EP-W 2026-03-05 6PM',
      before: 100,
      asked: 80,
      allowed: 80,
      daily_delta: -20,
      cut: null,
      conditions: [],
      reason: {},
    },
  ],
  money: {
    added: 10,
    removed: 20,
    objects: 2,
    text: '+$10.00/day across 1 ad set · −$20.00/day across 1 ad set',
  },
  conditions: [
    { object_id: '230001', object_type: 'adset', name: 'Advisers 35-55', result: true, values: [cplUnder] },
    {
      object_id: '230003',
      object_type: 'adset',
      name: 'New lookalike',
      result: null,
      values: [
        { text: 'CPL (last 7 days) < 30', shown: 'CPL (last 7 days) no leads < $30.00', result: null },
        { text: 'Spend (today) > 10', shown: 'Spend (today) $4.00 > $10.00', result: false },
      ],
    },
  ],
};

beforeEach(() => {
  signOut();
  server.use(http.get(paths.rulePreview(5), () => HttpResponse.json(preview)));
});

describe('Preview of a budget rule', () => {
  it('shows the money line, the planned changes and each object’s conditions', async () => {
    signIn(withAccesses('create_update_rules'));
    renderWithAdmin(<RuleRunActions ruleId={5} name="Scale cheap leads" changes />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Preview what Scale cheap leads would change' }));
    const dialog = await screen.findByRole('dialog');

    const money = await within(dialog).findByTestId('money-line');
    expect(money).toHaveTextContent('+$10.00/day across 1 ad set · −$20.00/day across 1 ad set');
    expect(money).toHaveStyle({ fontWeight: '700' });

    const changes = within(dialog).getByRole('table', { name: 'Budget changes' });
    const raised = within(changes).getByTestId('budget-change-230001');
    expect(
      within(raised)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual([
      'Advisers 35-55Raise · EDM EP-W 2026-03-05 6PM · 230001',
      '$50.00 → $60.00',
      '$75.00',
      '+50% asked, +20% allowed: 24 h ceiling',
      '+$10.00',
    ]);
    const lowered = within(changes).getByTestId('budget-change-230002');
    expect(
      within(lowered)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['RetireesLower · EDM EP-W 2026-03-05 6PM · 230002', '$100.00 → $80.00', '$80.00', '—', '−$20.00']);
    expect(within(dialog).queryByText(/the rule would turn nothing off/)).not.toBeInTheDocument();
    expect(within(dialog).queryByText(/Would turn off 0/)).not.toBeInTheDocument();

    const judged = within(dialog).getByRole('table', { name: 'Conditions as judged' });
    expect(within(judged).getByTestId('conditions-230001')).toHaveTextContent(
      'Advisers 35-55holds · 230001✓ CPL (last 7 days) $21.40 < $30.00',
    );
    const noData = within(judged).getByTestId('conditions-230003');
    expect(noData).toHaveTextContent('no data · 230003');
    expect(within(noData).getByText(/CPL \(last 7 days\) no leads/)).toHaveTextContent(
      'no data CPL (last 7 days) no leads < $30.00',
    );
    expect(within(noData).getByText(/Spend \(today\)/)).toHaveTextContent('✗ Spend (today) $4.00 > $10.00');

    expect(within(dialog).getByRole('button', { name: 'Run now' })).toBeEnabled();
  });
});
