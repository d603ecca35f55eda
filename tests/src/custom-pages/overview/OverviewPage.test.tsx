/**
 * The agency overview against msw: the folders in the server's order with a chip per reason, their
 * numbers, links to the folder's Activity (for view_logs) and its oldest held run; Access denied
 * without read_rules; and General's way to it.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AgencyOverview, OverviewRow } from '../../../../shared/overview';
import { paths } from '../../../../src/providers/apiPaths';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderApp, signIn, signOut } from '../../../support/renderApp';
import { withAccesses } from '../../../support/users';

const server = setupMswServer();

const quietPeriod = { spend: null, leads: null, cpl: null, days_read: 0 };

function row(id: number, name: string, overrides: Partial<OverviewRow>): OverviewRow {
  return {
    folder: { id, name, client_type: 'EDM' },
    ad_account: {
      ad_account_id: `act_${id}`,
      account_name: `${name} account`,
      timezone_name: 'America/New_York',
      currency: 'USD',
    },
    today: quietPeriod,
    week: quietPeriod,
    read_at: null,
    cpl_threshold: null,
    cpl_over_threshold: false,
    rules_acted_today: 0,
    actions_today: 0,
    held_runs: { count: 0, turn_offs: 0, budget_added: null, oldest: null },
    health: [],
    needs_attention: { score: 0, reasons: [] },
    ...overrides,
  };
}

const overview: AgencyOverview = {
  generated_at: '2026-11-28T15:00:00.000Z',
  count: 3,
  results: [
    row(2, 'Bay Held', {
      held_runs: { count: 2, turn_offs: 5, budget_added: null, oldest: { rule_id: 21, run_id: 301 } },
      health: [
        { check: 'token', state: 'problem', detail: 'Error validating access token: Session has expired', since: '' },
      ],
      needs_attention: {
        score: 3,
        reasons: [
          { kind: 'held_runs', count: 2, budget_added: null },
          {
            kind: 'health',
            check: 'token',
            state: 'problem',
            detail: 'Error validating access token: Session has expired',
          },
        ],
      },
    }),
    row(3, 'Dear Leads', {
      today: { spend: 840, leads: 10, cpl: 84, days_read: 1 },
      week: { spend: 1200, leads: 20, cpl: 60, days_read: 7 },
      cpl_threshold: 60,
      cpl_over_threshold: true,
      rules_acted_today: 1,
      actions_today: 3,
      needs_attention: { score: 2, reasons: [{ kind: 'cpl_over', period: 'today', cpl: 84, threshold: 60 }] },
    }),
    row(1, 'Quiet Quarry', {}),
  ],
};

beforeEach(() => {
  signOut();
  server.use(http.get(paths.overview, () => HttpResponse.json(overview)));
});

const folderRows = async () => {
  const table = await screen.findByRole('table', { name: 'Agency overview' });
  return within(table).getAllByRole('row').slice(1);
};

describe('the agency overview', () => {
  it('lists the folders in the server’s order, with a chip per reason and their numbers', async () => {
    signIn(withAccesses('read_rules', 'view_logs'));
    renderApp('/overview');
    const rows = await folderRows();
    expect(rows.map((r) => within(r).getAllByRole('link')[0]!.textContent)).toEqual([
      'Bay Held',
      'Dear Leads',
      'Quiet Quarry',
    ]);
    expect(screen.getByText('2 folders need a person')).toBeInTheDocument();

    const [held, costly, quiet] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(held).getByRole('link', { name: '2 held runs' })).toHaveAttribute('href', '/edit-rule/21?run=301');
    expect(within(held).getByRole('link', { name: 'Token expired' })).toHaveAttribute('href', '/health');
    expect(within(costly).getByText('CPL $84 over $60')).toBeInTheDocument();
    expect(within(costly).getByText('$840.00')).toBeInTheDocument();
    expect(within(costly).getByText(/10 leads/)).toBeInTheDocument();
    expect(within(costly).getByText('1 rule acted')).toBeInTheDocument();
    expect(within(quiet).getAllByText('Not read yet')).toHaveLength(2);
    expect(within(quiet).getByText('No CPL rule')).toBeInTheDocument();
    expect(within(costly).getByRole('link', { name: 'Activity of Dear Leads' })).toHaveAttribute(
      'href',
      '/activity?folder_id=3',
    );
  });

  it('leaves out the Activity links without view_logs', async () => {
    signIn(withAccesses('read_rules'));
    renderApp('/overview');
    await folderRows();
    expect(screen.queryByRole('link', { name: /^Activity of / })).not.toBeInTheDocument();
  });

  it('a folder’s name opens it in General, found and open', async () => {
    signIn(withAccesses('read_rules'));
    server.use(
      http.get(paths.generalPage, () => HttpResponse.json({ count: 0, next: null, previous: null, results: [] })),
    );
    renderApp('/overview');
    const [, costly] = (await folderRows()) as HTMLElement[];
    await userEvent.setup().click(within(costly!).getByRole('link', { name: 'Dear Leads' }));
    expect(await screen.findByTestId('address')).toHaveTextContent(/^\/$/);
    expect(await screen.findByRole('searchbox')).toHaveValue('Dear Leads');
  });

  it('is closed to those without read_rules', async () => {
    signIn(withAccesses('view_logs'));
    renderApp('/overview');
    expect(await screen.findByText(/^Your permission groups do not open this screen/)).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('General’s toolbar leads to it', async () => {
    signIn(withAccesses('read_rules'));
    server.use(
      http.get(paths.generalPage, () => HttpResponse.json({ count: 0, next: null, previous: null, results: [] })),
    );
    renderApp('/');
    await userEvent.setup().click(await screen.findByRole('link', { name: 'Agency overview' }));
    expect(await screen.findByTestId('address')).toHaveTextContent('/overview');
    expect(await folderRows()).toHaveLength(3);
  });
});
