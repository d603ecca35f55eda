/**
 * A run record of a rule with conditions and a budget action: each object's conditions as judged
 * (✓, ✗, no data), the run's budget changes with their money line, and a held run's money — the
 * line and the daily budget it adds against the folder's limit — before and in the approval.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { RunDetail } from '../../../../src/custom-pages/edit-rule/RunDetail';
import type { BudgetChangeDto } from '../../../../shared/budgetChanges';
import type { RuleRunDto } from '../../../../shared/contracts';
import { paths } from '../../../../src/providers/apiPaths';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderWithAdmin, signIn, signOut } from '../../../support/renderApp';
import { withAccesses } from '../../../support/users';

const server = setupMswServer();

const change = (id: string, overrides: Partial<BudgetChangeDto> = {}): BudgetChangeDto => ({
  action: 'raise_budget',
  object_id: id,
  object_type: 'adset',
  name: `Ad set ${id}`,
  campaign_id: '110001',
  campaign_name: 'EDM EP-W 2026-03-05 6PM',
  before: 50,
  asked: 60,
  allowed: 60,
  daily_delta: 10,
  cut: null,
  conditions: [],
  reason: {},
  ...overrides,
});

const base: RuleRunDto = {
  id: 60,
  rule_id: 5,
  slot: '2026-03-05T12:00:00.000Z',
  started_at: '2026-03-05T12:00:05.000Z',
  finished_at: '2026-03-05T12:00:09.000Z',
  trigger: 'schedule',
  outcome: 'done',
  note: '2 budget changes',
  error: null,
  counts: { objects: 2, acted: 2 },
  decision: null,
  decided_by: null,
  decided_at: null,
  objects: [
    {
      type: 'adset',
      id: '230001',
      name: 'Advisers 35-55',
      campaign_id: '110001',
      campaign_name: 'EDM EP-W 2026-03-05 6PM',
      crossed: null,
      metrics: {
        spend: 214,
        leads: 10,
        website_leads: 0,
        link_clicks: 80,
        clicks: 90,
        impressions: 9000,
        ctr: 1,
        cpc: 2.68,
      },
      verdicts: { conditions: 'acted' },
      conditions: [
        { text: 'CPL (last 7 days) < 30', shown: 'CPL (last 7 days) $21.40 < $30.00', result: true },
        { text: 'Attendees (lifetime) ≥ 5', shown: 'Attendees (lifetime) no outcome data ≥ 5', result: null },
        { text: 'CTR (today) > 2', shown: 'CTR (today) 1.00% > 2.00%', result: false },
      ],
    },
  ],
  planned: [],
  problems: [],
  limits: null,
  budget_changes: [
    change('230001', {
      name: 'Advisers 35-55',
      asked: 75,
      allowed: 60,
      cut: '+50% asked, +20% allowed: 24 h ceiling',
    }),
    change('230002', {
      action: 'restore_budget',
      name: 'Retirees',
      before: 90,
      asked: 60,
      allowed: 60,
      daily_delta: -30,
    }),
  ],
  money: { added: 10, removed: 30, objects: 2, text: '+$10.00/day across 1 ad set · −$30.00/day across 1 ad set' },
};

const held: RuleRunDto = {
  ...base,
  id: 61,
  outcome: 'held',
  note: 'held: adds $1,400.00/day',
  decision: 'pending',
  limits: {
    affected: 14,
    delivering: 40,
    actions: 14,
    max_share: 0.5,
    max_actions: 25,
    added_daily: 1400,
    max_daily_increase: 1000,
  },
  money: { added: 1240, removed: 0, objects: 14, text: '+$1,240.00/day across 14 ad sets' },
};

beforeEach(() => {
  signOut();
  server.use(
    http.get(paths.ruleRun(60), () => HttpResponse.json(base)),
    http.get(paths.ruleRun(61), () => HttpResponse.json(held)),
  );
});

describe('a run record with conditions and budget changes', () => {
  it('shows each object’s conditions as judged, the changes and the money line', async () => {
    signIn(withAccesses('read_rules'));
    renderWithAdmin(<RunDetail runId={60} />);
    const object = await screen.findByTestId('run-object-230001');
    const conditions = within(object).getByRole('list', { name: 'Conditions' });
    expect(
      within(conditions)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      '✓ CPL (last 7 days) $21.40 < $30.00',
      'no data Attendees (lifetime) no outcome data ≥ 5',
      '✗ CTR (today) 1.00% > 2.00%',
    ]);

    expect(screen.getByTestId('money-line')).toHaveTextContent(
      '+$10.00/day across 1 ad set · −$30.00/day across 1 ad set',
    );
    const changes = screen.getByRole('table', { name: 'Budget changes' });
    expect(
      within(within(changes).getByTestId('budget-change-230001'))
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual([
      'Advisers 35-55Raise · EDM EP-W 2026-03-05 6PM · 230001',
      '$50.00 → $60.00',
      '$75.00',
      '+50% asked, +20% allowed: 24 h ceiling',
      '+$10.00',
    ]);
    expect(within(changes).getByTestId('budget-change-230002')).toHaveTextContent(
      'RetireesRoll back · EDM EP-W 2026-03-05 6PM · 230002$90.00 → $60.00$60.00—−$30.00',
    );
  });

  it('shows a held run’s money and its daily increase against the limit, and asks with them', async () => {
    signIn(withAccesses('read_rules', 'create_update_rules'));
    renderWithAdmin(<RunDetail runId={61} />);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Money at stake: +$1,240.00/day across 14 ad sets')).toBeInTheDocument();
    expect(
      within(alert).getByText(
        'Adds $1,400.00/day with the folder’s raises of the last 24 hours, over its limit of $1,000.00/day.',
      ),
    ).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(within(alert).getByRole('button', { name: 'Approve the held changes of run 61' }));
    const dialog = await screen.findByRole('dialog', { name: 'Carry out the held changes?' });
    expect(dialog).toHaveTextContent('Money at stake: +$1,240.00/day across 14 ad sets');
    expect(dialog).toHaveTextContent('over its limit of $1,000.00/day');
  });
});
