/**
 * A resource defined in one file, in the browser: the alert destinations' generated list, create
 * form (the server's refusal on its field) and side panel entry, and the read-only ad accounts.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { apiUrl } from '../../../../src/providers/apiPaths';
import { captureConsoleErrors, loggedHttpStatuses } from '../../../support/consoleErrors';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderApp, signIn, signOut } from '../../../support/renderApp';
import { withAccesses } from '../../../support/users';

const server = setupMswServer();
const page = (results: unknown[]) => ({ count: results.length, next: null, previous: null, results });
const ops = { id: 1, name: 'Ops channel', folder_id: 7, url: '********WXYZ', is_active: true };
const everyone = { id: 2, name: 'Everyone', folder_id: null, url: '********ABCD', is_active: false };

beforeEach(() => {
  signOut();
  server.use(
    http.get(apiUrl('alert_destinations/'), () => HttpResponse.json(page([ops, everyone]))),
    http.get(apiUrl('general_page/'), () => HttpResponse.json(page([{ id: 7, name: 'Acme Wealth' }]))),
    http.post(apiUrl('alert_destinations/'), () =>
      HttpResponse.json({ url: ['Enter an https:// address'] }, { status: 400 }),
    ),
    http.get(apiUrl('meta_ad_account/'), () =>
      HttpResponse.json(
        page([
          {
            ad_account_id: 'act_1',
            account_name: 'Harbor Wealth',
            timezone_name: 'UTC',
            currency: 'USD',
            account_status: 1,
            synced_at: '2026-11-26T05:00:00.000Z',
            campaigns_synced_at: null,
            campaign_sync_error: 'rate limited',
            health: 'problem',
          },
        ]),
      ),
    ),
  );
});

describe('alert destinations, defined in one file', () => {
  it('lists them with the folder by name, an empty folder as every folder, the address masked', async () => {
    signIn(withAccesses('read_rules', 'create_update_rules'));
    renderApp('/alert_destinations');
    const row = (await screen.findByText('Ops channel')).closest('tr')!;
    expect(await within(row).findByText('Acme Wealth')).toBeInTheDocument();
    expect(within(row).getByText('********WXYZ')).toBeInTheDocument();
    expect(within(screen.getByText('Everyone').closest('tr')!).getByText('Every folder')).toBeInTheDocument();
    expect(document.title).toBe('Ad Rules Console | Alert destinations');
    expect(screen.getByRole('columnheader', { name: 'Webhook URL' })).toBeInTheDocument();
  });

  it('says "needs re-entry" for an address the server\'s key cannot read, in the list and the edit form', async () => {
    const moved = { id: 3, name: 'Moved', folder_id: null, url: 'needs re-entry', is_active: true };
    server.use(
      http.get(apiUrl('alert_destinations/'), () => HttpResponse.json(page([ops, moved]))),
      http.get(apiUrl('alert_destinations/3/'), () => HttpResponse.json(moved)),
    );
    signIn(withAccesses('read_rules', 'create_update_rules'));
    renderApp('/alert_destinations');
    const row = (await screen.findByText('Moved')).closest('tr')!;
    expect(within(row).getByText('needs re-entry')).toBeInTheDocument();
    expect(
      within(screen.getByText('Ops channel').closest('tr')!).queryByText('needs re-entry'),
    ).not.toBeInTheDocument();
    await userEvent.setup().click(row);
    const input = await screen.findByRole('textbox', { name: 'Webhook URL' });
    expect(input).toHaveValue('');
    expect(screen.getByText(/^Needs re-entry: the server's key cannot read the stored value/)).toBeInTheDocument();
  });

  it('with none yet says so and what they are; a search that finds none says nothing matched', async () => {
    server.use(http.get(apiUrl('alert_destinations/'), () => HttpResponse.json(page([]))));
    signIn(withAccesses('read_rules', 'create_update_rules'));
    renderApp('/alert_destinations');
    expect(await screen.findByText('No alert destinations yet.')).toBeInTheDocument();
    expect(screen.getByText(/^Slack-compatible incoming webhooks that receive the alerts/)).toBeInTheDocument();
    expect(screen.queryByText('No Alert destinations found')).not.toBeInTheDocument();
    await userEvent.setup().type(screen.getByRole('searchbox'), 'ops');
    expect(
      await screen.findByText('Nothing matches the search or the filters.', {}, { timeout: 3000 }),
    ).toBeInTheDocument();
  });

  it('shows the server refusal under its field, and no Create to a reader', async () => {
    const consoleErrors = captureConsoleErrors();
    signIn(withAccesses('read_rules', 'create_update_rules'));
    renderApp('/alert_destinations');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('link', { name: 'Create' }));
    expect(await screen.findByText('New alert destination')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Sales');
    await user.type(screen.getByRole('textbox', { name: 'Webhook URL' }), 'https://hooks.example.com/x');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Enter an https:// address')).toBeInTheDocument();
    expect(loggedHttpStatuses(consoleErrors)).toEqual([400]);
  });

  it('has its side panel entry for those who may list it only', async () => {
    signIn(withAccesses('read_rules'));
    renderApp('/alert_destinations');
    await screen.findByText('Ops channel');
    expect(screen.queryByRole('link', { name: 'Create' })).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: /menu/i }));
    const nav = await screen.findByRole('navigation', { name: 'Ad Rules Console' });
    expect(within(nav).getByRole('link', { name: 'Alert destinations' })).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Ad accounts' })).toBeInTheDocument();
  });

  it('keeps the entries from someone whose permissions do not open the lists', async () => {
    signIn(withAccesses('view_logs'));
    renderApp('/log');
    await userEvent.setup().click(await screen.findByRole('button', { name: /menu/i }));
    const nav = await screen.findByRole('navigation', { name: 'Ad Rules Console' });
    expect(within(nav).queryByRole('link', { name: 'Alert destinations' })).not.toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'General' })).toBeInTheDocument();
  });
});

describe('ad accounts, defined in one file', () => {
  it('lists the accounts with their sync state and health, and no Create', async () => {
    signIn(withAccesses('read_rules'));
    renderApp('/ad_accounts');
    const row = (await screen.findByText('Harbor Wealth')).closest('tr')!;
    expect(within(row).getByText('rate limited')).toBeInTheDocument();
    expect(within(row).getByText('problem')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Campaigns synced' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Health' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Create' })).not.toBeInTheDocument();
  });
});
