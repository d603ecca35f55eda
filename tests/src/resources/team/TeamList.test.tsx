import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../../../shared/permissions';
import { MESSAGES } from '../../../../shared/validation';
import { paths } from '../../../../src/providers/apiPaths';
import { captureConsoleErrors, loggedHttpStatuses } from '../../../support/consoleErrors';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderApp, signIn, signOut } from '../../../support/renderApp';
import { withAccesses } from '../../../support/users';
import {
  bodyOf,
  editors,
  emailTaken,
  groupList,
  invitation,
  invitationId,
  member,
  page,
  viewers,
} from '../../fixtures/people';

const server = setupMswServer();

const grace = member({ id: 20, groups: [editors] });
const linus = member({
  id: 21,
  first_name: 'Linus',
  last_name: 'Torvalds',
  email: 'linus@example.com',
  is_active: false,
  groups: [],
});

let userQueries: URLSearchParams[];

beforeEach(() => {
  signOut();
  userQueries = [];
  server.use(
    http.get(paths.users, ({ request }) => {
      userQueries.push(new URL(request.url).searchParams);
      return HttpResponse.json(page([grace, linus], 12));
    }),
    http.get(paths.groups, () => HttpResponse.json(page(groupList))),
    http.get(paths.invitationsPending, () => HttpResponse.json(page([]))),
  );
});

const row = async (name: string) => (await screen.findByText(name)).closest('tr')!;

describe('Team screen', () => {
  it('shows the team 10 a page with Full name, Email, Permission Group and Action', async () => {
    signIn(withAccesses('update_permissions'));
    renderApp('/team');
    expect(await screen.findByText('Grace Hopper')).toBeInTheDocument();
    for (const column of ['Full name', 'Email', 'Permission Group', 'Action']) {
      expect(screen.getByRole('columnheader', { name: new RegExp(column) })).toBeInTheDocument();
    }
    expect(screen.getByText('linus@example.com')).toBeInTheDocument();
    expect(Object.fromEntries(userQueries.at(-1)!)).toMatchObject({ limit: '10', offset: '0' });
    expect(document.title).toBe('Ad Rules Console | Team');
    // Without add_edit_users the group is only shown; without is_staff the action is disabled.
    expect(within(await row('Grace Hopper')).getByText('Editors')).toBeInTheDocument();
    expect(within(await row('Grace Hopper')).getByRole('button', { name: 'Deactivate' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Invite' })).not.toBeInTheDocument();
  });

  it('offers page sizes 10, 25, 50 and 100 and pages on the server', async () => {
    signIn(withAccesses('update_permissions'));
    renderApp('/team');
    await screen.findByText('Grace Hopper');
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: /rows per page/i }));
    const options = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['10', '25', '50', '100']);
    await user.click(options[1]!);
    await waitFor(() => expect(userQueries.at(-1)!.get('limit')).toBe('25'));
  });

  it('is closed to users without update_permissions', async () => {
    signIn(withAccesses('read_rules'));
    renderApp('/team');
    expect(
      (await screen.findAllByText(/not have the right permissions|Unauthorized|access denied/i))[0],
    ).toBeInTheDocument();
    expect(screen.queryByText('Grace Hopper')).not.toBeInTheDocument();
  });

  it("changes a user's group with add_edit_users", async () => {
    let setGroupUrl = '';
    server.use(
      http.get(paths.userSetGroup(':id', ':group'), ({ request }) => {
        setGroupUrl = new URL(request.url).pathname;
        return HttpResponse.json({ ...grace, groups: [viewers] });
      }),
    );
    signIn(withAccesses('update_permissions', 'add_edit_users'));
    renderApp('/team');
    const user = userEvent.setup();
    await user.click(
      within(await row('Grace Hopper')).getByRole('combobox', { name: 'Permission Group: Grace Hopper' }),
    );
    await user.click(await screen.findByRole('option', { name: 'Viewers' }));
    await waitFor(() => expect(setGroupUrl).toBe('/api/user/20/set_group/2/'));
    expect(await screen.findByText('Permission group changed successfully')).toBeInTheDocument();
  });

  it('activates and deactivates with is_staff, with the success message', async () => {
    const patches: Record<string, unknown>[] = [];
    server.use(
      http.patch(paths.user(':id'), async ({ request, params }) => {
        patches.push({ id: params.id, ...(await bodyOf(request)) });
        return HttpResponse.json({ ...linus, is_active: true });
      }),
    );
    signIn({ ...withAccesses('update_permissions', 'is_staff') });
    renderApp('/team');
    await userEvent.setup().click(within(await row('Linus Torvalds')).getByRole('button', { name: 'Activate' }));
    expect(await screen.findByText('User activity changed successfully')).toBeInTheDocument();
    expect(patches).toEqual([{ id: '21', is_active: true }]);
  });

  it('does not offer to deactivate yourself', async () => {
    signIn({ id: 20, ...withAccesses('update_permissions', 'is_staff') });
    renderApp('/team');
    expect(within(await row('Grace Hopper')).getByRole('button', { name: 'Deactivate' })).toBeDisabled();
    expect(within(await row('Linus Torvalds')).getByRole('button', { name: 'Activate' })).toBeEnabled();
  });

  it('shows a refused activity change in the snackbar', async () => {
    const consoleErrors = captureConsoleErrors();
    server.use(
      http.patch(paths.user(':id'), () =>
        HttpResponse.json({ detail: 'Only a superuser can change a superuser.' }, { status: 403 }),
      ),
    );
    signIn(withAccesses('update_permissions', 'is_staff'));
    renderApp('/team');
    await userEvent.setup().click(within(await row('Grace Hopper')).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByText('Only a superuser can change a superuser.')).toBeInTheDocument();
    expect(loggedHttpStatuses(consoleErrors)).toEqual([403]);
  });
});

describe('Invite dialog', () => {
  async function openInvite() {
    signIn(withAccesses('update_permissions', 'add_edit_users'));
    renderApp('/team');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Invite' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite a colleague' });
    return { user, dialog };
  }

  it('asks for a permission group and a valid e-mail', async () => {
    const { user, dialog } = await openInvite();
    await user.type(within(dialog).getByLabelText(/Email/), 'not-an-email');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await within(dialog).findByText('E-mail must be valid')).toBeInTheDocument();
    expect(within(dialog).getByText('Field is required')).toBeInTheDocument();
  });

  it('sends the invitation, says so, and lists it as pending', async () => {
    let sent: Record<string, unknown> | undefined;
    const pending: ReturnType<typeof invitation>[] = [];
    server.use(
      http.post(paths.inviteSend, async ({ request }) => {
        sent = await bodyOf(request);
        pending.push(
          invitation(invitationId('a'), 'new@example.com', { group: { id: viewers.id, name: viewers.name } }),
        );
        return HttpResponse.json({ detail: 'Invitation sent successfully', invitation: pending[0] });
      }),
      http.get(paths.invitationsPending, () => HttpResponse.json(page(pending))),
    );
    const { user, dialog } = await openInvite();
    await user.click(within(dialog).getByRole('combobox', { name: /Permission group/ }));
    await user.click(await screen.findByRole('option', { name: 'Viewers' }));
    await user.type(within(dialog).getByLabelText(/Email/), 'new@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Invitation sent successfully')).toBeInTheDocument();
    expect(sent).toEqual({ group_id: 2, email: 'new@example.com' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Invite a colleague' })).not.toBeInTheDocument());
    // The create's own refresh of the invitations' list.
    expect(await screen.findByText('new@example.com')).toBeInTheDocument();
  });

  it('with no permission group yet says why, leads to creating one and comes back to Team', async () => {
    let created: Record<string, unknown> | undefined;
    server.use(
      http.get(paths.groups, () => HttpResponse.json(page(created ? [{ id: 7, ...created }] : []))),
      http.get(paths.availablePermissions, () => HttpResponse.json([...PERMISSIONS])),
      http.post(paths.groups, async ({ request }) => {
        created = await bodyOf(request);
        return HttpResponse.json({ id: 7, ...created }, { status: 201 });
      }),
    );
    const { user, dialog } = await openInvite();
    expect(await within(dialog).findByText(/There is no permission group yet: create one first/)).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Send invitation' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('link', { name: 'Create a permission group' }));
    const name = await screen.findByRole('textbox', { name: 'Group' });
    expect(screen.getByTestId('address')).toHaveTextContent('/permissions/create');
    await user.clear(name);
    await user.type(name, 'Editors');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent(/^\/team$/));
    expect(created).toMatchObject({ name: 'Editors' });
    // Now Invite offers the new group.
    await user.click(await screen.findByRole('button', { name: 'Invite' }));
    const again = await screen.findByRole('dialog', { name: 'Invite a colleague' });
    await user.click(within(again).getByRole('combobox', { name: /Permission group/ }));
    expect(await screen.findByRole('option', { name: 'Editors' })).toBeInTheDocument();
  });

  it('with no permission group yet tells someone who may not create one whom to ask', async () => {
    server.use(http.get(paths.groups, () => HttpResponse.json(page([]))));
    signIn(withAccesses('add_edit_users'));
    renderApp('/team');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Invite' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite a colleague' });
    expect(await within(dialog).findByText(/ask someone who may change permissions to create one/)).toBeInTheDocument();
    expect(within(dialog).queryByRole('link', { name: 'Create a permission group' })).not.toBeInTheDocument();
  });

  it('puts server field errors under the fields and the rest in the error list', async () => {
    const consoleErrors = captureConsoleErrors();
    server.use(http.post(paths.inviteSend, emailTaken));
    const { user, dialog } = await openInvite();
    await user.click(within(dialog).getByRole('combobox', { name: /Permission group/ }));
    await user.click(await screen.findByRole('option', { name: 'Editors' }));
    await user.type(within(dialog).getByLabelText(/Email/), 'grace@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await within(dialog).findByText('A user with this e-mail already exists.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/Email/)).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByRole('listitem')).toHaveTextContent('Try another address.');
    expect(loggedHttpStatuses(consoleErrors)).toEqual([400]);
  });
});

describe("a member's profile through the Edit view", () => {
  it('opens from the row for add_edit_users, saves only the change, and shows a field refusal under it', async () => {
    const consoleErrors = captureConsoleErrors();
    const sent: Record<string, unknown>[] = [];
    let refuse = true;
    server.use(
      http.get(paths.user(':id'), () => HttpResponse.json(linus)),
      http.patch(paths.user(':id'), async ({ request }) => {
        const body = await bodyOf(request);
        sent.push(body);
        if (refuse) return HttpResponse.json({ phone: [MESSAGES.phone] }, { status: 400 });
        return HttpResponse.json({ ...linus, ...body });
      }),
    );
    signIn(withAccesses('add_edit_users'));
    renderApp('/team');
    const user = userEvent.setup();
    await user.click(await within(await row('Linus Torvalds')).findByRole('link', { name: 'Edit' }));
    expect(await screen.findByText('Edit team member')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Email' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    const phone = screen.getByRole('textbox', { name: 'Phone' });
    await user.type(phone, '+12 3456 7890');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(MESSAGES.phone)).toBeInTheDocument();
    expect(sent).toEqual([{ phone: '+12 3456 7890' }]);
    expect(loggedHttpStatuses(consoleErrors)).toEqual([400]);

    refuse = false;
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent(/^\/team$/));
  });

  it('offers no Edit to someone who may only activate', async () => {
    signIn(withAccesses('is_staff'));
    renderApp('/team');
    const linusRow = await row('Linus Torvalds');
    await within(linusRow).findByRole('button', { name: 'Activate' });
    expect(within(linusRow).queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
  });
});
