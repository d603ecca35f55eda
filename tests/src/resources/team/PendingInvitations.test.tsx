/** Team's pending invitations: listed with Resend and Cancel for add_edit_users; who may open Team. */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { paths } from '../../../../src/providers/apiPaths';
import { captureConsoleErrors, loggedHttpStatuses } from '../../../support/consoleErrors';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderApp, signIn, signOut } from '../../../support/renderApp';
import { withAccesses } from '../../../support/users';
import { editors, groupList, invitation, invitationId, member, page } from '../../fixtures/people';

const server = setupMswServer();

const hash = invitationId;

let pending: ReturnType<typeof invitation>[];
let calls: string[];

beforeEach(() => {
  signOut();
  calls = [];
  pending = [
    invitation(hash('a'), 'new.colleague@example.com'),
    invitation(hash('b'), 'late@example.com', { group: null, is_expired: true }),
  ];
  server.use(
    http.get(paths.users, () => HttpResponse.json(page([member({ groups: [editors] })]))),
    http.get(paths.groups, () => HttpResponse.json(page(groupList))),
    http.get(paths.invitationsPending, () => HttpResponse.json(page(pending))),
    http.post(`${paths.invitationsPending}:id/resend/`, ({ params }) => {
      calls.push(`resend ${params.id}`);
      const old = pending.find((p) => p.id === params.id)!;
      pending = pending.map((p) => (p.id === params.id ? { ...p, id: hash('c'), is_expired: false } : p));
      return HttpResponse.json({ detail: 'Invitation sent successfully', invitation: { ...old, id: hash('c') } });
    }),
    http.delete(`${paths.invitationsPending}:id/`, ({ params }) => {
      calls.push(`cancel ${params.id}`);
      pending = pending.filter((p) => p.id !== params.id);
      return new HttpResponse(null, { status: 204 });
    }),
  );
});

const pendingSection = () => screen.findByRole('region', { name: 'Pending invitations' });

describe('pending invitations on Team', () => {
  it('lists e-mail, group, inviter and expiry; an expired one says so', async () => {
    signIn(withAccesses('add_edit_users'));
    renderApp('/team');
    const section = await pendingSection();
    const rows = within(section).getAllByRole('row');
    expect(
      within(rows[0]!)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Email', 'Permission Group', 'Invited by', 'Expires', 'Action']);
    expect(rows[1]).toHaveTextContent('new.colleague@example.com');
    expect(rows[1]).toHaveTextContent('Editors');
    expect(rows[1]).toHaveTextContent('Ada Lovelace');
    expect(rows[1]).toHaveTextContent('11/27/2026');
    expect(rows[2]).toHaveTextContent('late@example.com');
    expect(rows[2]).toHaveTextContent('No group');
    expect(within(rows[2]!).getByText('Expired')).toBeInTheDocument();
  });

  it('resends with the success message and shows the renewed invitation', async () => {
    signIn(withAccesses('add_edit_users'));
    renderApp('/team');
    await pendingSection();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Resend late@example.com' }));
    expect(await screen.findByText('Invitation sent successfully')).toBeInTheDocument();
    expect(calls).toEqual([`resend ${hash('b')}`]);
    const section = await pendingSection();
    await waitFor(() => expect(within(section).queryByText('Expired')).not.toBeInTheDocument());
  });

  it('cancels after a confirm, and the invitation leaves the list', async () => {
    signIn(withAccesses('add_edit_users'));
    renderApp('/team');
    await pendingSection();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Cancel new.colleague@example.com' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Cancel the invitation to new.colleague@example.com?');
    await user.click(within(dialog).getByRole('button', { name: 'Keep' }));
    expect(calls).toEqual([]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(await screen.findByRole('button', { name: 'Cancel new.colleague@example.com' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('Invitation cancelled')).toBeInTheDocument();
    expect(calls).toEqual([`cancel ${hash('a')}`]);
    await waitFor(() => expect(screen.queryByText('new.colleague@example.com')).not.toBeInTheDocument());
  });

  it('shows a failed resend in the error list at the top', async () => {
    const consoleErrors = captureConsoleErrors();
    server.use(
      http.post(`${paths.invitationsPending}:id/resend/`, () =>
        HttpResponse.json({ detail: 'The invitation e-mail could not be sent. Try again later.' }, { status: 502 }),
      ),
    );
    signIn(withAccesses('add_edit_users'));
    renderApp('/team');
    await pendingSection();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Resend late@example.com' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('listitem')).toHaveTextContent(
      'The invitation e-mail could not be sent. Try again later.',
    );
    expect(loggedHttpStatuses(consoleErrors)).toEqual([502]);
  });

  it('is not shown (nor asked for) without add_edit_users', async () => {
    let asked = false;
    server.use(
      http.get(paths.invitationsPending, () => {
        asked = true;
        return HttpResponse.json(page(pending));
      }),
    );
    signIn(withAccesses('is_staff'));
    renderApp('/team');
    expect(await screen.findByText('Grace Hopper')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Pending invitations' })).not.toBeInTheDocument();
    expect(asked).toBe(false);
  });
});

describe('who may open Team', () => {
  it.each(['update_permissions', 'add_edit_users', 'is_staff'])('%s opens /team', async (access) => {
    signIn(withAccesses(access));
    renderApp('/team');
    expect(await screen.findByText('Grace Hopper')).toBeInTheDocument();
  });
});
