/**
 * Meta connections in the browser against msw: the list (business, expiry, permissions, accounts,
 * status; the built-in one read-only), adding one with Meta's refusal under the token field and
 * success opening the connection with its ad accounts, and who is offered to add or remove.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { MetaConnectionDetailDto, MetaConnectionDto } from '../../../../shared/metaConnections';
import { apiUrl } from '../../../../src/providers/apiPaths';
import { captureConsoleErrors, loggedHttpStatuses } from '../../../support/consoleErrors';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderApp, signIn, signOut } from '../../../support/renderApp';
import { withAccesses } from '../../../support/users';
import { bodyOf, page } from '../../fixtures/people';

const server = setupMswServer();

const builtIn: MetaConnectionDto = {
  id: 1,
  name: 'Built-in: META_ACCESS_TOKEN',
  source: 'environment',
  system_user: { id: '100', name: 'Agency Admin' },
  business: null,
  token_type: 'USER',
  scopes: ['ads_management', 'ads_read'],
  expires_at: null,
  ad_accounts_count: 3,
  status: 'ok',
  problems: [],
  checked_at: '2026-11-28T10:00:00.000Z',
  created_at: '2026-11-01T10:00:00.000Z',
};

const northwind: MetaConnectionDto = {
  id: 2,
  name: 'Northwind',
  source: 'added',
  system_user: { id: '61', name: 'Rules Robot' },
  business: { id: '91', name: 'Northwind Advisors' },
  token_type: 'SYSTEM_USER',
  scopes: ['ads_management', 'leads_retrieval'],
  expires_at: '2027-01-27T10:00:00.000Z',
  ad_accounts_count: 2,
  status: 'problem',
  problems: [
    {
      check: 'token',
      state: 'problem',
      detail: 'Error validating access token: The session has been invalidated',
      since: '2026-11-28T10:00:00.000Z',
    },
  ],
  checked_at: '2026-11-28T10:00:00.000Z',
  created_at: '2026-11-20T10:00:00.000Z',
};

const added: MetaConnectionDetailDto = {
  ...northwind,
  id: 3,
  name: 'Harbor Group',
  business: { id: '92', name: 'Harbor Group' },
  status: 'ok',
  problems: [],
  reached_accounts: [
    { ad_account_id: 'act_11', account_name: 'Harbor Wealth', served: true },
    { ad_account_id: 'act_12', account_name: 'Harbor Estates', served: false },
  ],
};

let posted: Record<string, unknown>[];

beforeEach(() => {
  signOut();
  posted = [];
  server.use(
    http.get(apiUrl('meta_connections/'), () => HttpResponse.json(page([builtIn, northwind]))),
    http.get(apiUrl('meta_connections/3/'), () => HttpResponse.json(added)),
  );
});

const admin = () => signIn({ is_superuser: true });

describe('Meta connections', () => {
  it('lists each connection with its business, expiry, permissions, accounts and status', async () => {
    admin();
    renderApp('/meta_connections');
    const row = (await screen.findByText('Northwind')).closest('tr')!;
    expect(within(row).getByText('Northwind Advisors')).toBeInTheDocument();
    expect(within(row).getByText('Rules Robot')).toBeInTheDocument();
    expect(within(row).getByText('1/27/2027')).toBeInTheDocument();
    expect(within(row).getByText('leads_retrieval')).toBeInTheDocument();
    expect(within(row).getByText('2')).toBeInTheDocument();
    expect(
      within(row).getByLabelText('Not working: Error validating access token: The session has been invalidated'),
    ).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Remove Northwind' })).toBeInTheDocument();

    const builtInRow = screen.getByText('Built-in: META_ACCESS_TOKEN').closest('tr')!;
    expect(within(builtInRow).getByText('Built-in')).toBeInTheDocument();
    expect(within(builtInRow).getByText('Never')).toBeInTheDocument();
    expect(within(builtInRow).getByText('Working')).toBeInTheDocument();
    expect(within(builtInRow).queryByRole('button', { name: /Remove/ })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add connection' })).toBeInTheDocument();
    expect(document.title).toBe('Ad Rules Console | Meta connections');
  });

  it('shows the list to whoever sees the ad accounts, without adding or removing', async () => {
    signIn(withAccesses('read_rules'));
    renderApp('/meta_connections');
    const row = (await screen.findByText('Northwind')).closest('tr')!;
    expect(within(row).queryByRole('button', { name: /Remove/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Add connection' })).not.toBeInTheDocument();
  });

  it("puts Meta's refusal of a token under the token field and keeps the form", async () => {
    const consoleErrors = captureConsoleErrors();
    server.use(
      http.post(apiUrl('meta_connections/'), async ({ request }) => {
        posted.push(await bodyOf(request));
        return HttpResponse.json(
          { token: ['Meta refused this token: Invalid OAuth access token - Cannot parse access token'] },
          { status: 400 },
        );
      }),
    );
    admin();
    renderApp('/meta_connections/create');
    const user = userEvent.setup();
    const token = await screen.findByLabelText(/System-user token/);
    expect(token).toHaveAttribute('type', 'password');
    await user.type(token, 'EAAbroken');
    await user.click(screen.getByRole('button', { name: 'Add connection' }));
    const refused = 'Meta refused this token: Invalid OAuth access token - Cannot parse access token';
    // Under the field (its description) and in the snackbar.
    await waitFor(() => expect(token).toHaveAccessibleDescription(refused));
    expect(within(await screen.findByRole('alert')).getByText(refused)).toBeInTheDocument();
    expect(token).toHaveAttribute('aria-invalid', 'true');
    expect(posted).toEqual([{ name: '', token: 'EAAbroken' }]);
    expect(screen.getByTestId('address')).toHaveTextContent('/meta_connections/create');
    expect(loggedHttpStatuses(consoleErrors)).toEqual([400]);
  });

  it('checks the token before sending it', async () => {
    admin();
    renderApp('/meta_connections/create');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/System-user token/), 'two words');
    await user.click(screen.getByRole('button', { name: 'Add connection' }));
    expect(await screen.findByText('A token is one word: no spaces or line breaks')).toBeInTheDocument();
    expect(posted).toEqual([]);
  });

  it('adds a connection and opens it with the ad accounts it reaches', async () => {
    server.use(
      http.post(apiUrl('meta_connections/'), async ({ request }) => {
        posted.push(await bodyOf(request));
        return HttpResponse.json(added, { status: 201 });
      }),
    );
    admin();
    renderApp('/meta_connections/create');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/Name/), 'Harbor Group');
    await user.type(screen.getByLabelText(/System-user token/), 'EAASimGood');
    await user.click(screen.getByRole('button', { name: 'Add connection' }));
    expect(await screen.findByText('Connection added')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent('/meta_connections/3/show'));
    const accounts = await screen.findByText('Harbor Wealth');
    const table = accounts.closest('table')!;
    expect(within(table).getByText('act_11')).toBeInTheDocument();
    expect(within(table).getByText('used through another connection')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Ad accounts it reaches (2)' })).toBeInTheDocument();
    expect(posted).toEqual([{ name: 'Harbor Group', token: 'EAASimGood' }]);
    expect(document.body.textContent).not.toContain('EAASimGood');
  });

  it('tells a colleague who is not an admin that only admins add connections', async () => {
    signIn(withAccesses('read_rules', 'create_update_rules', 'add_edit_campaigns'));
    renderApp('/meta_connections/create');
    expect(await screen.findByText('Only an admin can add or remove Meta connections.')).toBeInTheDocument();
    expect(screen.queryByLabelText(/System-user token/)).not.toBeInTheDocument();
  });
});
