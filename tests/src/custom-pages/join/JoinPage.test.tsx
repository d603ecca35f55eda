import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { paths } from '../../../../src/providers/apiPaths';
import { MESSAGES } from '../../../../shared/validation';
import { captureConsoleErrors, loggedHttpStatuses } from '../../../support/consoleErrors';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderApp, signOut } from '../../../support/renderApp';
import { bodyOf } from '../../fixtures/people';

const server = setupMswServer();

beforeEach(() => signOut());

const input = (name: RegExp) => screen.getByLabelText(name, { selector: 'input' });

async function fill(values: { first?: string; last?: string; phone?: string; password?: string; password2?: string }) {
  renderApp('/join/invite-123');
  await screen.findByRole('heading', { name: 'Confirm invitation' });
  const user = userEvent.setup();
  if (values.first) await user.type(input(/First name/), values.first);
  if (values.last) await user.type(input(/Last name/), values.last);
  if (values.phone) await user.type(input(/Phone/), values.phone);
  if (values.password) await user.type(input(/^Password/), values.password);
  if (values.password2) await user.type(input(/Confirm Password/), values.password2);
  await user.click(screen.getByRole('button', { name: 'Join' }));
  return user;
}

describe('Confirm invitation', () => {
  it('shows the phone format the rule accepts under the field', async () => {
    renderApp('/join/invite-123');
    const phone = await screen.findByLabelText(/Phone/, { selector: 'input' });
    expect(phone).toHaveAccessibleDescription(
      'Optional. 10 digits with an optional leading +, like +12 3456 7890 or 1234567890',
    );
    expect(phone).toHaveAttribute('placeholder', '+12 3456 7890');
  });

  it('checks the fields as the contract validation says', async () => {
    await fill({ phone: '12', password: 'short', password2: 'other' });
    expect(await screen.findAllByText('Field is required')).toHaveLength(2);
    expect(screen.getByText(MESSAGES.phone)).toBeInTheDocument();
    expect(screen.getAllByText('Password must be at least 8 characters')).toHaveLength(2);
    expect(document.title).toBe('Ad Rules Console | Confirm invitation');
  });

  it('joins with the code from the address, says so, and goes to the login route', async () => {
    let sent: Record<string, unknown> | undefined;
    server.use(
      http.post(paths.inviteConfirm, async ({ request }) => {
        sent = await bodyOf(request);
        return HttpResponse.json(
          { detail: 'Invitation confirmed successfully', email: 'nina@example.com' },
          { status: 201 },
        );
      }),
    );
    await fill({
      first: 'Nina',
      last: 'New',
      phone: '+44 1234 5678',
      password: 'nina-password',
      password2: 'nina-password',
    });
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent(/^\/login$/));
    expect(await screen.findByText('Invitation confirmed successfully')).toBeInTheDocument();
    expect(sent).toEqual({
      first_name: 'Nina',
      last_name: 'New',
      phone: '+44 1234 5678',
      password: 'nina-password',
      password2: 'nina-password',
      invite_code: 'invite-123',
    });
  });

  it("puts field messages under the fields and other keys as 'key: message'", async () => {
    const consoleErrors = captureConsoleErrors();
    server.use(
      http.post(paths.inviteConfirm, () =>
        HttpResponse.json(
          { phone: [MESSAGES.phone], invite_code: ['This invitation has already been used.'] },
          { status: 400 },
        ),
      ),
    );
    await fill({
      first: 'Nina',
      last: 'New',
      phone: '+44 1234 5678',
      password: 'nina-password',
      password2: 'nina-password',
    });
    expect(await screen.findByText(MESSAGES.phone)).toBeInTheDocument();
    expect(input(/Phone/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('listitem')).toHaveTextContent(/^This invitation has already been used\.$/);
    expect(screen.getByTestId('address')).toHaveTextContent('/join/invite-123');
    expect(loggedHttpStatuses(consoleErrors)).toEqual([400]);
  });
});
