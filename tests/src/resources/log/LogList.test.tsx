import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { paths } from '../../../../src/providers/apiPaths';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderApp, signIn, signOut } from '../../../support/renderApp';
import { withAccesses } from '../../../support/users';

const server = setupMswServer();

const entry = {
  id: 1,
  timestamp: '2025-03-04T10:15:00Z',
  actor: 'Ada Lovelace',
  folder_name: 'Acme Advisors',
  meta_ad_account_name: 'Acme Ads',
  action: 'Rule updated',
  changes_text: 'is_active: false → true',
  rule_name: 'EP-W: Pause ad CPL > $40',
};

let queries: URLSearchParams[];

beforeEach(() => {
  signOut();
  queries = [];
  server.use(
    http.get(paths.log, ({ request }) => {
      queries.push(new URL(request.url).searchParams);
      return HttpResponse.json({ count: 1, next: null, previous: null, results: [entry] });
    }),
  );
});

const lastQuery = () => queries[queries.length - 1]!;

describe('Log list', () => {
  it('shows the columns and entries, asking for the first 10 newest', async () => {
    signIn(withAccesses('view_logs', 'delete_rules'));
    renderApp('/log');
    expect(await screen.findByText('Rule updated')).toBeInTheDocument();
    for (const column of ['Date', 'Responsible', 'Client / Ad account', 'Action', 'Rule']) {
      expect(screen.getByRole('columnheader', { name: new RegExp(column) })).toBeInTheDocument();
    }
    expect(screen.getByText('Acme Advisors')).toBeInTheDocument();
    expect(screen.getByText('Acme Ads')).toBeInTheDocument();
    expect(screen.getByText('is_active: false → true')).toBeInTheDocument();
    expect(Object.fromEntries(lastQuery())).toEqual({ limit: '10', offset: '0', ordering: '-timestamp' });
    expect(screen.getByRole('link', { name: 'Trash' })).toHaveAttribute('href', '/trash/');
  });

  it('turns ?rule_id= and ?folder_id= into chips and filters; removing a chip removes its parameter', async () => {
    signIn(withAccesses('view_logs'));
    renderApp('/log?rule_id=5&folder_id=2');
    const ruleChip = await screen.findByRole('button', { name: 'Rule id: 5' });
    expect(screen.getByRole('button', { name: 'Folder id 2' })).toBeInTheDocument();
    await waitFor(() => expect(lastQuery().get('rule_id_in')).toBe('5'));
    expect(lastQuery().get('folder_id_in')).toBe('2');

    await userEvent.setup().click(within(ruleChip).getByTestId('CancelIcon'));
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent(/^\/log\?folder_id=2$/));
    expect(screen.queryByRole('button', { name: 'Rule id: 5' })).not.toBeInTheDocument();
    await waitFor(() => expect(lastQuery().get('rule_id_in')).toBeNull());
    expect(lastQuery().get('folder_id_in')).toBe('2');
  });

  it('searches after typing stops, from the first page', async () => {
    signIn(withAccesses('view_logs'));
    renderApp('/log');
    await screen.findByText('Rule updated');
    await userEvent.setup().type(screen.getByRole('searchbox', { name: 'Search' }), 'acme');
    await waitFor(() => expect(lastQuery().get('search')).toBe('acme'));
    expect(lastQuery().get('offset')).toBe('0');
    expect(queries.filter((q) => q.get('search')?.startsWith('a'))).toHaveLength(1);
  });

  it('sorts by several columns at once', async () => {
    signIn(withAccesses('view_logs'));
    renderApp('/log');
    await screen.findByText('Rule updated');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Client \/ Ad account/ }));
    await waitFor(() => expect(lastQuery().get('ordering')).toBe('-timestamp,folder_name'));
    await user.click(screen.getByRole('button', { name: /Client \/ Ad account/ }));
    await waitFor(() => expect(lastQuery().get('ordering')).toBe('-timestamp,-folder_name'));
    await user.click(screen.getByRole('button', { name: /^Date/ }));
    await waitFor(() => expect(lastQuery().get('ordering')).toBe('-folder_name'));
  });

  it('offers page sizes 10, 20, 30, 50 and 100', async () => {
    signIn(withAccesses('view_logs'));
    renderApp('/log');
    await screen.findByText('Rule updated');
    await userEvent.setup().click(screen.getByRole('combobox', { name: /rows per page/i }));
    const options = within(await screen.findByRole('listbox'))
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(options).toEqual(['10', '20', '30', '50', '100']);
  });

  it('is closed to users without view_logs', async () => {
    signIn(withAccesses('read_rules'));
    renderApp('/log');
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent('/access-denied'));
    expect((await screen.findAllByRole('heading', { name: 'Access denied' }))[0]).toBeInTheDocument();
    expect(screen.getByText(/Your permission groups do not open this screen/)).toBeInTheDocument();
    expect(screen.queryByText('Rule updated')).not.toBeInTheDocument();
  });

  it('shows "of about 52,000" for an estimated total and pages on to the last page', async () => {
    // 23 entries in all; the server's estimate is far off until it answers the last page.
    const entries = Array.from({ length: 23 }, (_, i) => ({ ...entry, id: i + 1, action: `Entry ${i + 1}` }));
    server.use(
      http.get(paths.log, ({ request }) => {
        const params = new URL(request.url).searchParams;
        queries.push(params);
        const offset = Number(params.get('offset') ?? 0);
        const results = entries.slice(offset, offset + 10);
        const last = offset + 10 >= entries.length;
        return HttpResponse.json({
          count: last ? entries.length : 51_873,
          count_is_estimate: !last,
          count_is_lower_bound: false,
          next: last ? null : `http://localhost/api/log/?limit=10&offset=${offset + 10}`,
          previous: offset ? `http://localhost/api/log/?limit=10&offset=${offset - 10}` : null,
          results,
        });
      }),
    );
    signIn(withAccesses('view_logs'));
    renderApp('/log');
    expect(await screen.findByText('Entry 1')).toBeInTheDocument();
    expect(screen.getByText('1-10 of about 52,000')).toBeInTheDocument();
    const user = userEvent.setup();
    const nextPage = () => screen.getByRole('button', { name: /next page/i });

    await user.click(nextPage());
    expect(await screen.findByText('Entry 11')).toBeInTheDocument();
    expect(lastQuery().get('offset')).toBe('10');
    expect(screen.getByText('11-20 of about 52,000')).toBeInTheDocument();

    await user.click(nextPage());
    expect(await screen.findByText('Entry 23')).toBeInTheDocument();
    expect(lastQuery().get('offset')).toBe('20');
    // The last page knows the exact total and offers no further page.
    expect(screen.getByText('21-23 of 23')).toBeInTheDocument();
    expect(nextPage()).toBeDisabled();
  });
});
