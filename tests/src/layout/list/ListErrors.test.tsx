/**
 * docs/screens.md, docs/screens.md#errors-and-messages: when a screen's call fails, the shared error list shows at the top of the screen —
 * the react-admin lists (Team, Permissions, Log, Activity, Campaigns) included, not a snackbar.
 */
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { captureConsoleErrors, loggedHttpStatuses } from '../../../support/consoleErrors';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderApp, signIn, signOut } from '../../../support/renderApp';

const server = setupMswServer(
  http.get('/api/*', () => HttpResponse.json({ count: 0, next: null, previous: null, results: [] })),
);

beforeEach(() => {
  signOut();
  signIn({ is_superuser: true });
});

describe('the error list on list screens', () => {
  it.each([
    ['Team', '/team', '/api/user/'],
    ['Permissions', '/permissions', '/api/groups/'],
    ['Log', '/log', '/api/log/'],
    ['Activity', '/activity', '/api/rule_log/'],
    ['Campaigns', '/campaigns', '/api/campaigns/'],
  ])('%s shows a failed load as list items at the top', async (_screen, address, listPath) => {
    const consoleErrors = captureConsoleErrors();
    server.use(
      http.get(listPath, () => HttpResponse.json({ detail: 'The database is not answering.' }, { status: 503 })),
    );
    renderApp(address);
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(
      within(alert)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['The database is not answering.']);
    // Above the list's content, and only there: no snackbar repeats it.
    const main = alert.closest('main') ?? document.body;
    expect(within(main).queryByRole('table')).toBeNull();
    expect(within(main).queryByText(/rows per page/i)).toBeNull(); // no stale count either
    expect(screen.getAllByText('The database is not answering.')).toHaveLength(1);
    expect(loggedHttpStatuses(consoleErrors)).toEqual([503]);
  });

  it('flattens field errors to "Field: message" lines', async () => {
    const consoleErrors = captureConsoleErrors();
    server.use(http.get('/api/log/', () => HttpResponse.json({ ordering: ['Unknown key.'] }, { status: 400 })));
    renderApp('/log');
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(within(alert).getByRole('listitem')).toHaveTextContent('Ordering: Unknown key.');
    expect(loggedHttpStatuses(consoleErrors)).toEqual([400]);
  });

  it('shows nothing when the list loads', async () => {
    renderApp('/log');
    expect(await screen.findByRole('status', {}, { timeout: 10_000 })).toBeInTheDocument(); // the empty state
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
