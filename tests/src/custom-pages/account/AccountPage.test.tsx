import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { paths } from '../../../../src/providers/apiPaths';
import { MESSAGES } from '../../../../shared/validation';
import { session } from '../../../../src/providers/session';
import { captureConsoleErrors, loggedHttpStatuses } from '../../../support/consoleErrors';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderApp, signIn, signOut } from '../../../support/renderApp';
import { bodyOf } from '../../fixtures/people';

// Most accounts have no e-mail change waiting.
const server = setupMswServer(http.get(paths.emailChangePending(7), () => HttpResponse.json({ pending: null })));

beforeEach(() => signOut());

const field = (name: RegExp) => screen.getByLabelText(name, { selector: 'input' });

async function openAccount() {
  const me = signIn({
    id: 7,
    first_name: 'Ada',
    last_name: 'Lovelace',
    phone: '+44 1234 5678',
    email: 'ada@example.com',
  });
  renderApp('/account');
  await screen.findByRole('heading', { name: 'Account', level: 1 });
  return { me, user: userEvent.setup() };
}

describe('Account screen', () => {
  it('shows an e-mail change waiting for confirmation and withdraws it', async () => {
    let pending = true;
    let withdrawn = 0;
    server.use(
      http.get(paths.emailChangePending(7), () =>
        HttpResponse.json({
          pending: pending
            ? {
                new_email: 'mallory@evil.example',
                requested_by: 'Mallory Admin',
                created_at: '2026-01-01T00:00:00Z',
                expires_at: '2026-01-02T00:00:00Z',
              }
            : null,
        }),
      ),
      http.delete(paths.emailChangePending(7), () => {
        withdrawn += 1;
        pending = false;
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { user } = await openAccount();
    const notice = await screen.findByRole('alert');
    expect(notice).toHaveTextContent(
      'A change of your e-mail address to mallory@evil.example was asked for by Mallory Admin and waits for confirmation',
    );
    await user.click(within(notice).getByRole('button', { name: 'Withdraw' }));
    expect(await screen.findByText('The e-mail change was withdrawn: its link no longer works.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText(/mallory@evil\.example/)).not.toBeInTheDocument());
    expect(withdrawn).toBe(1);
  });

  it("shows the user's details, with the e-mail read-only and Save off until something changes", async () => {
    await openAccount();
    expect(field(/First name/)).toHaveValue('Ada');
    expect(field(/Last name/)).toHaveValue('Lovelace');
    expect(field(/Phone/)).toHaveValue('+44 1234 5678');
    expect(field(/Email/)).toHaveValue('ada@example.com');
    expect(field(/Email/)).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(document.title).toBe('Ad Rules Console | Account');
  });

  it('validates as the user types and keeps Save off for an invalid form', async () => {
    const { user } = await openAccount();
    await user.clear(field(/First name/));
    expect(await screen.findByText('Field is required')).toBeInTheDocument();
    // Before a refusal the phone field shows the format it accepts; the refusal says the same.
    expect(field(/Phone/)).toHaveAccessibleDescription(
      'Optional. 10 digits with an optional leading +, like +12 3456 7890 or 1234567890',
    );
    expect(field(/Phone/)).toHaveAttribute('placeholder', '+12 3456 7890');
    await user.clear(field(/Phone/));
    await user.type(field(/Phone/), '+1 (555) 010-0200');
    expect(await screen.findByText(MESSAGES.phone)).toBeInTheDocument();
    expect(field(/Phone/)).toHaveAccessibleDescription(
      'Phone number is not valid: use 10 digits, with an optional leading + and a space, dot or dash after the 2nd and 6th digits, like +12 3456 7890',
    );
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('saves only what changed, says so, and shows the new name in the header', async () => {
    let sent: Record<string, unknown> | undefined;
    server.use(
      http.patch(paths.user(7), async ({ request }) => {
        sent = await bodyOf(request);
        return HttpResponse.json({ ...session.get().user, ...sent });
      }),
    );
    const { user } = await openAccount();
    await user.clear(field(/First name/));
    await user.type(field(/First name/), 'Augusta');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Account data saved successfully')).toBeInTheDocument();
    expect(sent).toEqual({ first_name: 'Augusta' });
    expect(await screen.findByRole('button', { name: 'Augusta Lovelace' })).toBeInTheDocument();
    expect(session.get().user?.first_name).toBe('Augusta');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled());
  });

  it("puts the server's 400 messages on each named field", async () => {
    const consoleErrors = captureConsoleErrors();
    server.use(
      http.patch(paths.user(7), () =>
        HttpResponse.json(
          { phone: [MESSAGES.phone], last_name: ['Field must be at most 150 characters'] },
          { status: 400 },
        ),
      ),
    );
    const { user } = await openAccount();
    await user.type(field(/Last name/), '-King');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Field must be at most 150 characters')).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.phone)).toBeInTheDocument();
    expect(field(/Phone/)).toHaveAttribute('aria-invalid', 'true');
    expect(loggedHttpStatuses(consoleErrors)).toEqual([400]);
  });
});

describe('Change password', () => {
  const passwordField = (name: RegExp) => screen.getByLabelText(name, { selector: 'input' });

  it('checks the password rules', async () => {
    const { user } = await openAccount();
    await user.type(passwordField(/Old password/), 'x');
    await user.type(passwordField(/^New password/), 'short');
    await user.type(passwordField(/Repeat new password/), 'different-one');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findAllByText('Password must be at least 8 characters')).toHaveLength(2);
    expect(screen.getByText('Passwords must match')).toBeInTheDocument();
  });

  it('maps 400s to the password fields and other keys to the list', async () => {
    const consoleErrors = captureConsoleErrors();
    server.use(
      http.post(paths.changePassword, () =>
        HttpResponse.json(
          {
            old_password: ['Old password is not correct.'],
            non_field_errors: ['Try again later.'],
            token: ['Expired.'],
          },
          { status: 400 },
        ),
      ),
    );
    const { user } = await openAccount();
    await user.type(passwordField(/Old password/), 'not-my-password');
    await user.type(passwordField(/^New password/), 'new-password-1');
    await user.type(passwordField(/Repeat new password/), 'new-password-1');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Old password is not correct.')).toBeInTheDocument();
    expect(passwordField(/Old password/)).toHaveAttribute('aria-invalid', 'true');
    const list = screen.getByText('Try again later.').closest('ul')!;
    const items = within(list)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items).toEqual(['Try again later.', 'Expired.']);
    expect(loggedHttpStatuses(consoleErrors)).toEqual([400]);
  });

  it('changes the password, says so, keeps the fresh tokens and empties the form', async () => {
    let sent: Record<string, unknown> | undefined;
    server.use(
      http.post(paths.changePassword, async ({ request }) => {
        sent = await bodyOf(request);
        return HttpResponse.json({
          detail: 'Password changed successfully',
          access: 'new-access',
          refresh: 'new-refresh',
        });
      }),
    );
    const { user } = await openAccount();
    await user.type(passwordField(/Old password/), 'old-password');
    await user.type(passwordField(/^New password/), 'new-password-1');
    await user.type(passwordField(/Repeat new password/), 'new-password-1');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Password changed successfully')).toBeInTheDocument();
    expect(sent).toEqual({
      old_password: 'old-password',
      new_password: 'new-password-1',
      new_password2: 'new-password-1',
    });
    expect(session.get()).toMatchObject({ access_token: 'new-access', refresh_token: 'new-refresh' });
    await waitFor(() => expect(passwordField(/Old password/)).toHaveValue(''));
  });
});
