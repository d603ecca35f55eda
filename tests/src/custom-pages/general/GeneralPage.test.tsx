import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FolderDto } from '../../../../shared/folders';
import { paths } from '../../../../src/providers/apiPaths';
import { captureConsoleErrors, loggedHttpStatuses } from '../../../support/consoleErrors';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderApp, signIn, signOut } from '../../../support/renderApp';
import { withAccesses } from '../../../support/users';
import { folder, pageOf, ruleRow } from '../../fixtures/rules';

const server = setupMswServer();

let folders: FolderDto[];
let queries: URLSearchParams[];

/** How tall the page is; jsdom lays nothing out, so the tests say. 0 = the page does not fill the window. */
function pageHeight(height: number) {
  Object.defineProperty(document.documentElement, 'scrollHeight', { configurable: true, get: () => height });
}

beforeEach(() => {
  signOut();
  pageHeight(0);
  folders = Array.from({ length: 45 }, (_, i) => folder(i + 1));
  queries = [];
  server.use(
    http.get(paths.generalPage, ({ request }) => {
      const url = new URL(request.url);
      queries.push(url.searchParams);
      const search = url.searchParams.get('search')?.toLowerCase();
      const list = search ? folders.filter((f) => f.name.toLowerCase().includes(search)) : folders;
      return HttpResponse.json(pageOf(list, url));
    }),
    // The folder dialog's Lead outcomes (CRM) section: nothing recorded yet.
    http.get(paths.folderLeadOutcomes(':id'), () =>
      HttpResponse.json({ stages: [], last_recorded_at: null, key: null }),
    ),
  );
});

afterEach(() => {
  pageHeight(0);
});

const everyone = withAccesses('read_rules', 'create_update_rules', 'delete_rules', 'view_logs');
const offsets = () => queries.map((q) => q.get('offset'));

describe('General view: the folder tree', () => {
  it('shows folders with their counts and rules, 20 at a time, oldest first', async () => {
    pageHeight(5000);
    folders[0] = folder(1, {
      rules: [ruleRow(100, 1, { is_active: true, name: 'EP-W: Pause ad CPL > $40' }), ruleRow(101, 1)],
    });
    signIn(everyone);
    renderApp('/');
    const first = await screen.findByRole('listitem', { name: 'Client 1' });
    expect(within(first).getByText('2 rules, 1 active')).toBeInTheDocument();
    expect(Object.fromEntries(queries[0]!)).toEqual({ limit: '20', offset: '0', ordering: 'created_at' });
    expect(
      screen.getAllByRole('listitem').filter((li) => li.getAttribute('data-testid')?.startsWith('folder-')),
    ).toHaveLength(20);

    await userEvent.setup().click(within(first).getByRole('button', { name: 'Show the rules of Client 1' }));
    const rule = await screen.findByTestId('rule-100');
    expect(within(rule).getByRole('link', { name: 'EP-W: Pause ad CPL > $40' })).toHaveAttribute(
      'href',
      '/edit-rule/100',
    );
    expect(within(rule).getByRole('switch', { name: 'Active: EP-W: Pause ad CPL > $40' })).toBeChecked();
    expect(within(rule).getByRole('link', { name: 'Log of rule EP-W: Pause ad CPL > $40' })).toHaveAttribute(
      'href',
      '/log?rule_id=100',
    );
    expect(within(first).getByRole('link', { name: 'Activity of folder Client 1' })).toHaveAttribute(
      'href',
      '/activity?folder_id=1',
    );
  });

  it('marks a notify-only rule with a Notify only chip on its row, and only that rule', async () => {
    folders[0] = folder(1, {
      rules: [ruleRow(100, 1, { notify_only: true, name: 'Watch CPL' }), ruleRow(101, 1, { name: 'Acting rule' })],
    });
    signIn(everyone);
    renderApp('/');
    const first = await screen.findByRole('listitem', { name: 'Client 1' });
    await userEvent.setup().click(within(first).getByRole('button', { name: 'Show the rules of Client 1' }));
    expect(within(await screen.findByTestId('rule-100')).getByText('Notify only')).toBeInTheDocument();
    expect(within(screen.getByTestId('rule-101')).queryByText('Notify only')).not.toBeInTheDocument();
  });

  it('loads the next page when the user scrolls within 250 px of the bottom, and only then', async () => {
    pageHeight(5000);
    signIn(everyone);
    renderApp('/');
    await screen.findByRole('listitem', { name: 'Client 20' });
    fireEvent.scroll(window);
    expect(offsets()).toEqual(['0']);

    // 768 px window at the top of a 1,000 px page: 232 px from the bottom.
    pageHeight(1000);
    fireEvent.scroll(window);
    await screen.findByRole('listitem', { name: 'Client 40' });
    expect(offsets()).toEqual(['0', '20']);
  });

  it('keeps loading while the page does not fill the window, checking 400 ms after each load, until no page is left', async () => {
    // The fake clock also moves with real time, so the app's requests and renders run on their own.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    signIn(everyone);
    renderApp('/');
    await screen.findByRole('listitem', { name: 'Client 20' });
    expect(offsets()).toEqual(['0']);
    await act(() => vi.advanceTimersByTimeAsync(400));
    await screen.findByRole('listitem', { name: 'Client 40' });
    expect(offsets()).toEqual(['0', '20']);
    await act(() => vi.advanceTimersByTimeAsync(400));
    await screen.findByRole('listitem', { name: 'Client 45' });
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(offsets()).toEqual(['0', '20', '40']);
  });

  it('searches 500 ms after typing stops, from the first page, with every folder open', async () => {
    pageHeight(5000);
    folders.push(folder(77, { name: 'Acme Advisors', rules: [ruleRow(7700, 77, { name: 'Acme rule' })] }));
    signIn(everyone);
    renderApp('/');
    await screen.findByRole('listitem', { name: 'Client 1' });

    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    await user.type(screen.getByRole('searchbox', { name: 'Search for Client or Ad account' }), 'acme');
    await act(() => vi.advanceTimersByTimeAsync(400));
    expect(queries.filter((q) => q.has('search'))).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(100));
    await screen.findByRole('listitem', { name: 'Acme Advisors' });
    const searches = queries.filter((q) => q.has('search'));
    expect(searches.map((q) => [q.get('search'), q.get('offset')])).toEqual([['acme', '0']]);
    // Open while searching, without a click.
    expect(screen.getByText('Acme rule')).toBeInTheDocument();
    expect(screen.queryByRole('listitem', { name: 'Client 1' })).not.toBeInTheDocument();
  });
});

describe('General view: actions', () => {
  it('says why when switching on a rule answers rule errors, in the server’s words', async () => {
    const consoleErrors = captureConsoleErrors();
    pageHeight(5000);
    server.use(
      http.patch(paths.rule(100), () =>
        HttpResponse.json(
          { rule_task: { non_field_errors: ['Turn on at least one task to activate the rule'] } },
          { status: 400 },
        ),
      ),
    );
    signIn(everyone);
    renderApp('/');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Show the rules of Client 1' }));
    const toggle = await screen.findByRole('switch', { name: 'Active: Rule 100' });
    await user.click(toggle);
    expect(
      await screen.findByText('Fix all rule issues before activating: Turn on at least one task to activate the rule'),
    ).toBeInTheDocument();
    expect(toggle).not.toBeChecked();
    expect(loggedHttpStatuses(consoleErrors)).toEqual([400]);
  });

  it('switches a rule on and shows the new counts', async () => {
    pageHeight(5000);
    let body: unknown;
    server.use(
      http.patch(paths.rule(100), async ({ request }) => {
        body = await request.json();
        folders[0] = folder(1, { rules: [ruleRow(100, 1, { is_active: true })] });
        return HttpResponse.json({});
      }),
      http.get(paths.generalPageFolder(1), () => HttpResponse.json(folders[0])),
    );
    signIn(everyone);
    renderApp('/');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Show the rules of Client 1' }));
    await user.click(await screen.findByRole('switch', { name: 'Active: Rule 100' }));
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Active: Rule 100' })).toBeChecked());
    expect(body).toEqual({ is_active: true });
    expect(
      within(screen.getByRole('listitem', { name: 'Client 1' })).getByText('1 rule, 1 active'),
    ).toBeInTheDocument();
  });

  it('duplicates and trashes rules, and trashes folders', async () => {
    pageHeight(5000);
    const calls: string[] = [];
    server.use(
      http.post(paths.ruleDuplicate(100), () => {
        calls.push('duplicate');
        folders[0] = folder(1, { rules: [ruleRow(100, 1), ruleRow(101, 1, { name: 'Rule 100 (copy)' })] });
        return HttpResponse.json({}, { status: 201 });
      }),
      http.post(paths.ruleMoveToTrash(101), () => {
        calls.push('trash rule');
        folders[0] = folder(1, { rules: [ruleRow(100, 1)] });
        return HttpResponse.json({});
      }),
      http.post(paths.folderMoveToTrash(2), () => {
        calls.push('trash folder');
        return HttpResponse.json({});
      }),
      http.get(paths.generalPageFolder(1), () => HttpResponse.json(folders[0])),
    );
    signIn(everyone);
    renderApp('/');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Show the rules of Client 1' }));
    await user.click(await screen.findByRole('button', { name: 'Duplicate Rule 100' }));
    await screen.findByText('Rule 100 (copy)');
    expect(screen.getByText('2 rules, 0 active')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Move Rule 100 (copy) to the trash' }));
    await waitFor(() => expect(screen.queryByText('Rule 100 (copy)')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Move folder Client 2 to the trash' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Client 2' })).not.toBeInTheDocument());
    expect(calls).toEqual(['duplicate', 'trash rule', 'trash folder']);
  });

  it('gates changes on create_update_rules and A / L on view_logs', async () => {
    pageHeight(5000);
    signIn(withAccesses('read_rules'));
    renderApp('/');
    const first = await screen.findByRole('listitem', { name: 'Client 1' });
    expect(screen.getByRole('button', { name: 'Create Folder' })).toBeDisabled();
    expect(within(first).getByRole('button', { name: 'Move folder Client 1 to the trash' })).toBeDisabled();
    expect(within(first).getByRole('button', { name: 'Log of folder Client 1' })).toBeDisabled();
    expect(within(first).getByRole('button', { name: 'Edit folder Client 1' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Trash' })).toBeDisabled();
  });
});

describe('General view: the folder dialogs', () => {
  beforeEach(() => {
    server.use(
      http.get(paths.metaAdAccounts, () =>
        HttpResponse.json({
          count: 2,
          next: null,
          previous: null,
          results: [
            { ad_account_id: 'act_9', account_name: 'Nine Ads' },
            { ad_account_id: 'act_8', account_name: 'Eight Ads' },
          ],
        }),
      ),
    );
  });

  it('blocks Create with "This field is required" under each missing field', async () => {
    pageHeight(5000);
    let posted = false;
    server.use(
      http.post(paths.generalPage, () => {
        posted = true;
        return HttpResponse.json({}, { status: 201 });
      }),
    );
    signIn(everyone);
    renderApp('/');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Create Folder' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Folder' });
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getAllByText('This field is required')).toHaveLength(4);
    expect(posted).toBe(false);
  });

  it('creates a folder from the filled dialog, with credentials, and opens it in the tree', async () => {
    folders = [folder(1)];
    let body: Record<string, unknown> | undefined;
    server.use(
      http.post(paths.generalPage, async ({ request }) => {
        body = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json(folder(2, { name: 'Nine Wealth', rules: [ruleRow(200, 2, { name: 'New rule' })] }), {
          status: 201,
        });
      }),
    );
    signIn(everyone);
    renderApp('/');
    const user = userEvent.setup();
    await screen.findByRole('listitem', { name: 'Client 1' });
    await user.click(screen.getByRole('button', { name: 'Create Folder' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Folder' });
    await user.click(within(dialog).getByRole('combobox', { name: 'Type' }));
    await user.click(await screen.findByRole('option', { name: 'DLM' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Plan' }));
    await user.click(await screen.findByRole('option', { name: 'Quick Start' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Ad account name' }));
    await user.click(await screen.findByRole('option', { name: /Nine Ads/ }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Folder name' }), 'Nine Wealth');
    await user.type(within(dialog).getByRole('textbox', { name: 'API key' }), 'key-1');
    await user.type(within(dialog).getByRole('textbox', { name: 'API secret' }), 'secret-1');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    const created = await screen.findByRole('listitem', { name: 'Nine Wealth' });
    expect(within(created).getByText('New rule')).toBeInTheDocument();
    expect(body).toEqual({
      client_type: 'DLM',
      plan: 'quick_start',
      meta_ad_account_id: 'act_9',
      name: 'Nine Wealth',
      extension: { external_credentials: { demio: { api_key: 'key-1', api_secret: 'secret-1' } } },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('refreshes the ad-account list from the ad platform, with a spinner on the button until the list is back', async () => {
    pageHeight(5000);
    const calls: string[] = [];
    let accounts = [{ ad_account_id: 'act_9', account_name: 'Nine Ads' }];
    let finishRefresh = () => {};
    server.use(
      http.get(paths.metaAdAccounts, ({ request }) => {
        calls.push(`list ${new URL(request.url).search}`);
        return HttpResponse.json({ count: accounts.length, next: null, previous: null, results: accounts });
      }),
      http.get(paths.metaAdAccountsRefresh, async () => {
        calls.push('refresh');
        await new Promise<void>((resolve) => {
          finishRefresh = resolve;
        });
        accounts = [...accounts, { ad_account_id: 'act_10', account_name: 'Ten Ads (new on the platform)' }];
        return HttpResponse.json({ count: accounts.length, next: null, previous: null, results: accounts });
      }),
    );
    signIn(everyone);
    renderApp('/');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Create Folder' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Folder' });
    await waitFor(() => expect(calls).toEqual(['list ?limit=400']));

    const refresh = within(dialog).getByRole('button', { name: 'Refresh the ad account list from the ad platform' });
    expect(within(refresh).queryByRole('progressbar')).not.toBeInTheDocument();
    await user.click(refresh);
    expect(await within(refresh).findByRole('progressbar')).toBeInTheDocument();
    expect(refresh).toBeDisabled();
    finishRefresh();
    await waitFor(() => expect(within(refresh).queryByRole('progressbar')).not.toBeInTheDocument());
    expect(calls).toEqual(['list ?limit=400', 'refresh', 'list ?limit=400']);
    expect(refresh).toBeEnabled();

    await user.click(within(dialog).getByRole('combobox', { name: 'Ad account name' }));
    expect(await screen.findByRole('option', { name: /Ten Ads \(new on the platform\)/ })).toBeInTheDocument();
  });

  it('shows a failed ad-account refresh in the dialog', async () => {
    const consoleErrors = captureConsoleErrors();
    pageHeight(5000);
    server.use(
      http.get(paths.metaAdAccountsRefresh, () =>
        HttpResponse.json({ detail: 'The ad platform is not configured on this server.' }, { status: 503 }),
      ),
    );
    signIn(everyone);
    renderApp('/');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Create Folder' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Folder' });
    await user.click(within(dialog).getByRole('button', { name: 'Refresh the ad account list from the ad platform' }));
    expect(
      await within(dialog).findByText('The ad platform is not configured on this server.', { exact: false }),
    ).toBeInTheDocument();
    expect(loggedHttpStatuses(consoleErrors)).toEqual([503]);
  });

  it('says "needs re-entry" on a folder whose stored credentials the server cannot read, in the tree and in its dialog', async () => {
    pageHeight(5000);
    const credentials_error =
      "Webinar credentials: needs re-entry (this server's key cannot read the stored ones). Enter them again.";
    folders = [folder(1, { extension: { external_credentials: { demio: null }, credentials_error } }), folder(2)];
    signIn(everyone);
    renderApp('/');
    const unreadable = await screen.findByRole('listitem', { name: 'Client 1' });
    expect(within(unreadable).getByText('Credentials: needs re-entry')).toBeInTheDocument();
    expect(
      within(screen.getByRole('listitem', { name: 'Client 2' })).queryByText('Credentials: needs re-entry'),
    ).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Edit folder Client 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update Folder' });
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Stored credentials: needs re-entry.');
    expect(within(dialog).getByRole('textbox', { name: 'API key' })).toHaveValue('');
  });

  it('updates a folder, sending the masked credentials back untouched, and shows server errors under fields', async () => {
    const consoleErrors = captureConsoleErrors();
    pageHeight(5000);
    folders = [
      folder(1, {
        extension: { external_credentials: { demio: { api_key: '********ABCD', api_secret: '********WXYZ' } } },
      }),
    ];
    const bodies: Record<string, unknown>[] = [];
    server.use(
      http.patch(paths.generalPageFolder(1), async ({ request }) => {
        bodies.push((await request.json()) as Record<string, unknown>);
        if (bodies.length === 1)
          return HttpResponse.json({ name: ['Field must be at most 200 characters'] }, { status: 400 });
        return HttpResponse.json(folder(1, { name: 'Renamed' }));
      }),
    );
    signIn(everyone);
    renderApp('/');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit folder Client 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update Folder' });
    expect(within(dialog).getByRole('textbox', { name: 'API key' })).toHaveValue('********ABCD');
    await user.clear(within(dialog).getByRole('textbox', { name: 'Folder name' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Folder name' }), 'Renamed');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(await within(dialog).findAllByText('Field must be at most 200 characters')).not.toHaveLength(0);
    expect(bodies[0]).toMatchObject({
      name: 'Renamed',
      extension: { external_credentials: { demio: { api_key: '********ABCD', api_secret: '********WXYZ' } } },
    });

    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    await screen.findByRole('listitem', { name: 'Renamed' });
    expect(loggedHttpStatuses(consoleErrors)).toEqual([400]);
  });
});
