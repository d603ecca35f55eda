import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { paths } from '../../../../src/providers/apiPaths';
import { captureConsoleErrors, loggedHttpStatuses } from '../../../support/consoleErrors';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderApp, signOut } from '../../../support/renderApp';
import { bodyOf } from '../../fixtures/people';

const server = setupMswServer();

beforeEach(() => signOut());

const input = (name: RegExp) => screen.getByLabelText(name, { selector: 'input' });

describe('Password reset request', () => {
  it('checks the e-mail and links back to /login', async () => {
    renderApp('/password-reset');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/Email/), 'nope');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('E-mail must be valid')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', '/login');
    expect(document.title).toBe('Ad Rules Console | Password reset');
  });

  it("sends the address and shows 'Reset password link has been sent to your email'", async () => {
    let sent: Record<string, unknown> | undefined;
    let authorization: string | null = 'unset';
    server.use(
      http.post(paths.passwordResetRequest, async ({ request }) => {
        sent = await bodyOf(request);
        authorization = request.headers.get('authorization');
        return HttpResponse.json({ detail: 'Reset password link has been sent to your email' });
      }),
    );
    renderApp('/password-reset');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/Email/), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findAllByText('Reset password link has been sent to your email')).not.toHaveLength(0);
    expect(sent).toEqual({ email: 'ada@example.com' });
    expect(authorization).toBeNull();
  });

  it('shows a refused request: field messages under the field, others in the list', async () => {
    const consoleErrors = captureConsoleErrors();
    server.use(
      http.post(paths.passwordResetRequest, () =>
        HttpResponse.json(
          { email: ['E-mail must be valid'], detail: 'Too many attempts. Try again in 40 seconds.' },
          { status: 400 },
        ),
      ),
    );
    renderApp('/password-reset');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/Email/), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('E-mail must be valid')).toBeInTheDocument();
    expect(screen.getByRole('listitem')).toHaveTextContent('Too many attempts. Try again in 40 seconds.');
    expect(loggedHttpStatuses(consoleErrors)).toEqual([400]);
  });
});

describe('Confirm password reset', () => {
  const open = async () => {
    renderApp('/confirm-password-reset/the-token');
    await screen.findByRole('heading', { name: 'Choose a new password' });
    return userEvent.setup();
  };

  it('has a way home, the (disabled) trash link, and Save only for a valid form', async () => {
    const user = await open();
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('button', { name: 'Trash' })).toBeDisabled();
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    await user.type(input(/^Password/), 'short');
    expect(await screen.findByText('Password must be at least 8 characters')).toBeInTheDocument();
    await user.type(input(/^Password/), '-but-now-long');
    await user.type(input(/Confirm Password/), 'something-else');
    expect(await screen.findByText('Passwords must match')).toBeInTheDocument();
    expect(save).toBeDisabled();
    await user.clear(input(/Confirm Password/));
    await user.type(input(/Confirm Password/), 'short-but-now-long');
    await waitFor(() => expect(save).toBeEnabled());
  });

  it('sends the token from the address and goes to /login', async () => {
    let sent: Record<string, unknown> | undefined;
    server.use(
      http.post(paths.passwordResetConfirm, async ({ request }) => {
        sent = await bodyOf(request);
        return HttpResponse.json({ detail: 'Password has been reset. Sign in with the new password.' });
      }),
    );
    const user = await open();
    await user.type(input(/^Password/), 'fresh-password');
    await user.type(input(/Confirm Password/), 'fresh-password');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent(/^\/login$/));
    expect(sent).toEqual({ password: 'fresh-password', password2: 'fresh-password', token: 'the-token' });
  });

  it('shows password-field errors under the fields and the rest in the list', async () => {
    const consoleErrors = captureConsoleErrors();
    server.use(
      http.post(paths.passwordResetConfirm, () =>
        HttpResponse.json(
          {
            password: ['This password is too common.'],
            token: ['This password reset link has expired. Request a new one.'],
          },
          { status: 400 },
        ),
      ),
    );
    const user = await open();
    await user.type(input(/^Password/), 'password123');
    await user.type(input(/Confirm Password/), 'password123');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This password is too common.')).toBeInTheDocument();
    expect(input(/^Password/)).toHaveAttribute('aria-invalid', 'true');
    const list = screen.getByText('This password reset link has expired. Request a new one.').closest('ul')!;
    expect(within(list).getByRole('listitem')).toHaveTextContent(
      /^This password reset link has expired\. Request a new one\.$/,
    );
    expect(screen.getByTestId('address')).toHaveTextContent('/confirm-password-reset/the-token');
    // Editing the field clears its server message.
    await user.type(input(/^Password/), '!');
    await waitFor(() => expect(screen.queryByText('This password is too common.')).not.toBeInTheDocument());
    expect(loggedHttpStatuses(consoleErrors)).toEqual([400]);
  });
});
