import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../../../shared/permissions';
import { paths } from '../../../../src/providers/apiPaths';
import { captureConsoleErrors, loggedHttpStatuses } from '../../../support/consoleErrors';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderApp, signIn, signOut } from '../../../support/renderApp';
import { withAccesses } from '../../../support/users';
import { bodyOf, editors, page, viewers } from '../../fixtures/people';

const server = setupMswServer();

let groups: (typeof editors)[];
let requests: { method: string; path: string; body?: Record<string, unknown> }[];

beforeEach(() => {
  signOut();
  groups = [structuredClone(editors), structuredClone(viewers)];
  requests = [];
  server.use(
    http.get(paths.availablePermissions, () => HttpResponse.json([...PERMISSIONS])),
    http.get(paths.groups, () => HttpResponse.json(page(groups))),
    http.get(paths.group(':id'), ({ params }) => HttpResponse.json(groups.find((g) => g.id === Number(params.id)))),
    http.post(paths.groups, async ({ request }) => {
      const body = await bodyOf(request);
      requests.push({ method: 'POST', path: paths.groups, body });
      const created = { id: 3, ...(body as { name: string; group_access: { accesses: string[] } }) };
      groups.push(created);
      return HttpResponse.json(created, { status: 201 });
    }),
    http.patch(paths.group(':id'), async ({ request, params }) => {
      const body = await bodyOf(request);
      requests.push({ method: 'PATCH', path: new URL(request.url).pathname, body });
      const group = groups.find((g) => g.id === Number(params.id))!;
      Object.assign(group, body);
      return HttpResponse.json(group);
    }),
    http.delete(paths.group(':id'), ({ request, params }) => {
      requests.push({ method: 'DELETE', path: new URL(request.url).pathname });
      groups = groups.filter((g) => g.id !== Number(params.id));
      return new HttpResponse(null, { status: 204 });
    }),
  );
});

const row = async (name: string) => (await screen.findByText(name)).closest('tr')!;
const admin = () => signIn(withAccesses('view_permissions', 'update_permissions', ...PERMISSIONS));

describe('Permissions screen', () => {
  it('shows each group with a checkbox per access, underscores shown as spaces', async () => {
    admin();
    renderApp('/permissions');
    const accesses = within(await row('Editors')).getByRole('group', { name: 'Accesses of Editors' });
    const boxes = await within(accesses).findAllByRole('checkbox');
    expect(boxes).toHaveLength(PERMISSIONS.length);
    expect(within(accesses).getByRole('checkbox', { name: 'create update rules' })).toBeChecked();
    expect(within(accesses).getByRole('checkbox', { name: 'read rules' })).toBeChecked();
    expect(within(accesses).getByRole('checkbox', { name: 'add edit campaigns' })).not.toBeChecked();
    expect(document.title).toBe('Ad Rules Console | Permissions');
  });

  it('with no group yet explains what a group is and offers New group', async () => {
    groups = [];
    admin();
    renderApp('/permissions');
    expect(await screen.findByText(/^A permission group is a set of accesses/)).toBeInTheDocument();
    expect(screen.queryByText('No Permissions found')).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('link', { name: 'New group' }));
    expect(await screen.findByRole('textbox', { name: 'Group' })).toBeInTheDocument();
    expect(screen.getByTestId('address')).toHaveTextContent('/permissions/create');
  });

  it('with no group yet, tells a reader what a group is without offering to create one', async () => {
    groups = [];
    signIn(withAccesses('view_permissions'));
    renderApp('/permissions');
    expect(
      await screen.findByText('A permission group is a set of accesses. No group has been created yet.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'New group' })).not.toBeInTheDocument();
  });

  it('toggles an access', async () => {
    admin();
    renderApp('/permissions');
    const accesses = within(await row('Viewers')).getByRole('group', { name: 'Accesses of Viewers' });
    await userEvent.setup().click(await within(accesses).findByRole('checkbox', { name: 'view logs' }));
    await waitFor(() =>
      expect(requests).toEqual([
        { method: 'PATCH', path: '/api/groups/2/', body: { group_access: { accesses: ['read_rules', 'view_logs'] } } },
      ]),
    );
    await waitFor(() => expect(within(accesses).getByRole('checkbox', { name: 'view logs' })).toBeChecked());
  });

  it('puts a refused toggle back and says why', async () => {
    const consoleErrors = captureConsoleErrors();
    server.use(
      http.patch(paths.group(':id'), () =>
        HttpResponse.json({ detail: 'You cannot grant accesses you do not hold yourself.' }, { status: 403 }),
      ),
    );
    admin();
    renderApp('/permissions');
    const accesses = within(await row('Viewers')).getByRole('group', { name: 'Accesses of Viewers' });
    const box = await within(accesses).findByRole('checkbox', { name: 'delete rules' });
    await userEvent.setup().click(box);
    expect(await screen.findByText('You cannot grant accesses you do not hold yourself.')).toBeInTheDocument();
    await waitFor(() => expect(within(accesses).getByRole('checkbox', { name: 'delete rules' })).not.toBeChecked());
    expect(loggedHttpStatuses(consoleErrors)).toEqual([403]);
  });

  it("creates 'New group' with no accesses through the Create view", async () => {
    admin();
    renderApp('/permissions');
    await screen.findByText('Editors');
    const user = userEvent.setup();
    await user.click(screen.getByRole('link', { name: 'New group' }));
    expect(await screen.findByText('New permission group')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Group' })).toHaveValue('New group');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(requests).toEqual([
        { method: 'POST', path: paths.groups, body: { name: 'New group', group_access: { accesses: [] } } },
      ]),
    );
    expect(await screen.findByText('New group', { selector: 'td *' })).toBeInTheDocument();
  });

  it('renames a group and sets its accesses in its Edit view, in one save', async () => {
    admin();
    renderApp('/permissions');
    const user = userEvent.setup();
    await user.click(await within(await row('Viewers')).findByRole('link', { name: 'Edit Viewers' }));
    const name = await screen.findByRole('textbox', { name: 'Group' });
    expect(screen.getByText('Edit permission group')).toBeInTheDocument();
    await user.clear(name);
    await user.type(name, 'Readers');
    await user.click(screen.getByRole('checkbox', { name: 'view permissions' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(requests.map((r) => r.method)).toEqual(['PATCH']));
    expect(requests[0]!.body).toEqual({
      name: 'Readers',
      group_access: { accesses: ['read_rules', 'view_permissions'] },
    });
    expect(await screen.findByText('Readers', { selector: 'td *' })).toBeInTheDocument();
  });

  it('shows the server refusal of a name under the field', async () => {
    const consoleErrors = captureConsoleErrors();
    server.use(
      http.patch(paths.group(':id'), () =>
        HttpResponse.json({ name: ['A group with this name already exists'] }, { status: 400 }),
      ),
    );
    admin();
    renderApp('/permissions/2');
    const name = await screen.findByRole('textbox', { name: 'Group' });
    await userEvent.setup().type(name, ' again');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('A group with this name already exists')).toBeInTheDocument();
    expect(loggedHttpStatuses(consoleErrors)).toEqual([400]);
  });

  it('renames a group in place', async () => {
    admin();
    renderApp('/permissions');
    const user = userEvent.setup();
    await user.click(within(await row('Viewers')).getByRole('button', { name: 'Rename Viewers' }));
    const input = screen.getByRole('textbox', { name: 'Group' });
    await user.clear(input);
    await user.type(input, 'Readers{Enter}');
    expect(await screen.findByText('Group was renamed successfully')).toBeInTheDocument();
    expect(requests).toEqual([{ method: 'PATCH', path: '/api/groups/2/', body: { name: 'Readers' } }]);
    expect(await screen.findByText('Readers')).toBeInTheDocument();
  });

  it('checks the new name, and shows the server’s message under it', async () => {
    const consoleErrors = captureConsoleErrors();
    server.use(
      http.patch(paths.group(':id'), () =>
        HttpResponse.json({ name: ['Field must be at most 150 characters'] }, { status: 400 }),
      ),
    );
    admin();
    renderApp('/permissions');
    const user = userEvent.setup();
    await user.click(within(await row('Viewers')).getByRole('button', { name: 'Rename Viewers' }));
    const input = screen.getByRole('textbox', { name: 'Group' });
    await user.clear(input);
    expect(await screen.findByText('Field is required')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save name' })).toBeDisabled();
    await user.type(input, 'A very long name{Enter}');
    expect(await screen.findByText('Field must be at most 150 characters')).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(loggedHttpStatuses(consoleErrors)).toEqual([400]);
  });

  it('deletes a group after the confirmation', async () => {
    admin();
    renderApp('/permissions');
    const user = userEvent.setup();
    await user.click(await within(await row('Editors')).findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Are you sure you want to delete this group?')).toBeInTheDocument();
    expect(requests).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Group deleted successfully')).toBeInTheDocument();
    expect(requests).toEqual([{ method: 'DELETE', path: '/api/groups/1/' }]);
    await waitFor(() => expect(screen.queryByText('Editors')).not.toBeInTheDocument());
  });

  it('is read-only with view_permissions alone', async () => {
    signIn(withAccesses('view_permissions'));
    renderApp('/permissions');
    const editorsRow = await row('Editors');
    const boxes = await within(editorsRow).findAllByRole('checkbox');
    expect(boxes).toHaveLength(PERMISSIONS.length);
    for (const box of boxes) expect(box).toBeDisabled();
    expect(within(editorsRow).queryByRole('button', { name: 'Rename Editors' })).not.toBeInTheDocument();
    expect(within(editorsRow).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'New group' })).not.toBeInTheDocument();
    expect(within(editorsRow).queryByRole('link', { name: 'Edit Editors' })).not.toBeInTheDocument();
  });

  it('is closed without view_permissions', async () => {
    signIn(withAccesses('update_permissions'));
    renderApp('/permissions');
    expect(
      (await screen.findAllByText(/not have the right permissions|Unauthorized|access denied/i))[0],
    ).toBeInTheDocument();
  });
});
