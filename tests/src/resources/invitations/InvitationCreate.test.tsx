/**
 * The invitation's Create view (/invitations/create): how a team member is created, as a page —
 * the same inputs as Team's Invite dialog, saved through the dataProvider's create.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { paths } from '../../../../src/providers/apiPaths';
import { captureConsoleErrors, loggedHttpStatuses } from '../../../support/consoleErrors';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderApp, signIn, signOut } from '../../../support/renderApp';
import { withAccesses } from '../../../support/users';
import { bodyOf, emailTaken, groupList, invitation, invitationId, member, page, viewers } from '../../fixtures/people';

const server = setupMswServer();

let pending: ReturnType<typeof invitation>[];

beforeEach(() => {
  signOut();
  pending = [];
  server.use(
    http.get(paths.users, () => HttpResponse.json(page([member({})]))),
    http.get(paths.groups, () => HttpResponse.json(page(groupList))),
    http.get(paths.invitationsPending, () => HttpResponse.json(page(pending))),
  );
});

async function openCreate() {
  signIn(withAccesses('add_edit_users', 'update_permissions'));
  renderApp('/invitations/create');
  expect(await screen.findByRole('heading', { name: 'Invite a colleague' })).toBeInTheDocument();
  await screen.findByLabelText(/Email/);
  return userEvent.setup();
}

describe('Invite a colleague (/invitations/create)', () => {
  it('sends the invitation, says so, and shows it pending in Team', async () => {
    let sent: Record<string, unknown> | undefined;
    server.use(
      http.post(paths.inviteSend, async ({ request }) => {
        sent = await bodyOf(request);
        pending = [invitation(invitationId('a'), 'new@example.com', { group: { id: viewers.id, name: viewers.name } })];
        return HttpResponse.json({ detail: 'Invitation sent successfully', invitation: pending[0] });
      }),
    );
    const user = await openCreate();
    expect(document.title).toBe('Ad Rules Console | Invite a colleague');
    await user.click(screen.getByRole('combobox', { name: /Permission group/ }));
    await user.click(await screen.findByRole('option', { name: 'Viewers' }));
    await user.type(screen.getByLabelText(/Email/), 'new@example.com');
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Invitation sent successfully')).toBeInTheDocument();
    expect(sent).toEqual({ group_id: 2, email: 'new@example.com' });
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent(/^\/team$/));
    expect(await screen.findByText('new@example.com')).toBeInTheDocument();
  });

  it('checks the group and the e-mail before sending', async () => {
    const user = await openCreate();
    await user.type(screen.getByLabelText(/Email/), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('E-mail must be valid')).toBeInTheDocument();
    expect(screen.getByText('Field is required')).toBeInTheDocument();
  });

  it("puts the server's field errors under the fields and the rest in the snackbar", async () => {
    const consoleErrors = captureConsoleErrors();
    server.use(http.post(paths.inviteSend, emailTaken));
    const user = await openCreate();
    await user.click(screen.getByRole('combobox', { name: /Permission group/ }));
    await user.click(await screen.findByRole('option', { name: 'Editors' }));
    await user.type(screen.getByLabelText(/Email/), 'grace@example.com');
    await user.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('A user with this e-mail already exists.')).toBeInTheDocument();
    expect(screen.getByLabelText(/Email/)).toHaveAttribute('aria-invalid', 'true');
    expect(within(await screen.findByRole('alert')).getByText('Try another address.')).toBeInTheDocument();
    expect(screen.getByTestId('address')).toHaveTextContent('/invitations/create');
    expect(loggedHttpStatuses(consoleErrors)).toEqual([400]);
  });

  it('with no permission group yet says why and links to creating one', async () => {
    server.use(http.get(paths.groups, () => HttpResponse.json(page([]))));
    signIn(withAccesses('add_edit_users', 'update_permissions'));
    renderApp('/invitations/create');
    expect(await screen.findByText(/There is no permission group yet: create one first/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create a permission group' })).toHaveAttribute(
      'href',
      '/permissions/create',
    );
    expect(screen.queryByRole('button', { name: 'Send invitation' })).not.toBeInTheDocument();
  });

  it('is closed to someone who may not invite', async () => {
    signIn(withAccesses('update_permissions'));
    renderApp('/invitations/create');
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent('/access-denied'));
    expect(screen.getByText(/Your permission groups do not open this screen/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send invitation' })).not.toBeInTheDocument();
  });
});
