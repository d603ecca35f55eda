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

describe('Confirm e-mail change', () => {
  const open = async () => {
    renderApp('/confirm-email-change/the-token');
    await screen.findByRole('heading', { name: 'Confirm your new e-mail address' });
    return userEvent.setup();
  };

  it('changes nothing until Confirm, then sends the token without sign-in and goes to /login', async () => {
    let sent: Record<string, unknown> | undefined;
    let authorization: string | null = 'unset';
    server.use(
      http.post(paths.emailChangeConfirm, async ({ request }) => {
        sent = await bodyOf(request);
        authorization = request.headers.get('authorization');
        return HttpResponse.json({ detail: 'E-mail address changed. Sign in with the new address.', email: 'n@x.com' });
      }),
    );
    const user = await open();
    expect(document.title).toBe('Ad Rules Console | Confirm e-mail change');
    expect(sent).toBeUndefined();
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent(/^\/login$/));
    expect(sent).toEqual({ token: 'the-token' });
    expect(authorization).toBeNull();
  });

  it('shows a refused link in the error list and stays', async () => {
    const consoleErrors = captureConsoleErrors();
    server.use(
      http.post(paths.emailChangeConfirm, () =>
        HttpResponse.json({ token: ['This e-mail confirmation link has already been used.'] }, { status: 400 }),
      ),
    );
    const user = await open();
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    // The message says which link: no raw "Token:" before it.
    const list = (await screen.findByText('This e-mail confirmation link has already been used.')).closest('ul')!;
    expect(within(list).getByRole('listitem')).toHaveTextContent(
      /^This e-mail confirmation link has already been used\.$/,
    );
    expect(screen.getByTestId('address')).toHaveTextContent('/confirm-email-change/the-token');
    expect(loggedHttpStatuses(consoleErrors)).toEqual([400]);
  });
});
