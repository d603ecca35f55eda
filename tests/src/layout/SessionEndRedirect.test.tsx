/**
 * docs/screens.md#states-and-transitions: when a token refresh is refused the session ends and the user lands on /login — from any
 * signed-in screen, custom pages included, not only react-admin lists.
 */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { paths } from '../../../src/providers/apiPaths';
import { session } from '../../../src/providers/session';
import { type ConsoleErrors, captureConsoleErrors, loggedHttpStatuses } from '../../support/consoleErrors';
import { http, HttpResponse, setupMswServer } from '../../support/msw';
import { renderApp, signIn, signOut } from '../../support/renderApp';

const expired = () => HttpResponse.json({ detail: 'Given token not valid for any token type' }, { status: 401 });
let refreshCalls = 0;

// The access token is no longer accepted anywhere, and the refresh is refused.
const server = setupMswServer(
  http.post(paths.tokenRefresh, () => {
    refreshCalls += 1;
    return HttpResponse.json({ detail: 'Token is invalid or expired', code: 'token_not_valid' }, { status: 401 });
  }),
  http.all('/api/*', expired),
);

beforeEach(() => {
  signOut();
  refreshCalls = 0;
});

/** The login screen after the refused refresh; every call react-admin logged as failed was a 401. */
async function expectLoginScreen(consoleErrors: ConsoleErrors) {
  expect(await screen.findByRole('heading', { name: 'Login' }, { timeout: 15_000 })).toBeInTheDocument();
  expect(screen.getByTestId('address')).toHaveTextContent(/^\/login$/);
  expect(session.get()).toMatchObject({ access_token: null, refresh_token: null, user: null });
  expect(refreshCalls).toBeGreaterThan(0);
  const statuses = loggedHttpStatuses(consoleErrors);
  expect(new Set(statuses)).toEqual(new Set([401]));
}

describe('a session whose refresh fails', () => {
  it.each([
    ['the general view', '/'],
    ['the rule editor', '/edit-rule/5'],
    ['the trash', '/trash/'],
    ['the log', '/log'],
    ['the activity list', '/activity'],
    ['the team', '/team'],
    ['the permissions', '/permissions'],
  ])('ends on %s and lands on /login', async (_name, address) => {
    const consoleErrors = captureConsoleErrors();
    signIn({ is_superuser: true });
    renderApp(address);
    await expectLoginScreen(consoleErrors);
  });

  it('ends on the account screen when a save is refused', async () => {
    const consoleErrors = captureConsoleErrors();
    // The screen's own read went through while the token was still good; the save is the call refused.
    server.use(http.get('/api/user/:id/email_change/', () => HttpResponse.json({ pending: null })));
    signIn();
    renderApp('/account');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Old password'), 'old-password-1');
    await user.type(screen.getByLabelText('New password'), 'new-password-1');
    await user.type(screen.getByLabelText('Repeat new password'), 'new-password-1');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await expectLoginScreen(consoleErrors);
  });
});
