/**
 * A permission group's rule scope on its Edit view against msw: All folders or Chosen folders
 * found by name (the chosen ones named from their folder), the approval limit (empty: no limit),
 * and the PATCH that saves them; choosing no folder is refused before anything is sent.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../../../shared/permissions';
import { paths } from '../../../../src/providers/apiPaths';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderApp, signIn, signOut } from '../../../support/renderApp';
import { withAccesses } from '../../../support/users';
import { bodyOf } from '../../fixtures/people';

const server = setupMswServer();

const FOLDERS = [
  { id: 5, name: 'Harbor Wealth' },
  { id: 6, name: 'Summit Advisors' },
];

let group: Record<string, unknown>;
let patches: Record<string, unknown>[];

beforeEach(() => {
  signOut();
  group = {
    id: 3,
    name: 'Juniors',
    group_access: { accesses: ['read_rules', 'create_update_rules'] },
    rule_folders: null,
    approval_limit: 500,
  };
  patches = [];
  server.use(
    http.get(paths.availablePermissions, () => HttpResponse.json([...PERMISSIONS])),
    http.get(paths.group(':id'), () => HttpResponse.json(group)),
    http.patch(paths.group(':id'), async ({ request }) => {
      const body = (await bodyOf(request)) as Record<string, unknown>;
      patches.push(body);
      group = { ...group, ...body };
      return HttpResponse.json(group);
    }),
    http.get(paths.generalPage, ({ request }) => {
      const search = new URL(request.url).searchParams.get('search') ?? '';
      const results = FOLDERS.filter((f) => f.name.toLowerCase().includes(search.toLowerCase()));
      return HttpResponse.json({ count: results.length, next: null, previous: null, results });
    }),
    http.get(paths.generalPageFolder(':id'), ({ params }) =>
      HttpResponse.json(FOLDERS.find((f) => f.id === Number(params.id))),
    ),
  );
});

const admin = () => signIn(withAccesses('view_permissions', 'update_permissions', ...PERMISSIONS));

describe('a group’s rule folders and approval limit', () => {
  it('keeps the group to a folder found by name and empties the limit; the PATCH says so', async () => {
    admin();
    renderApp('/permissions/3');
    const user = userEvent.setup();
    const limit = await screen.findByRole('spinbutton', { name: /^Approval limit/ });
    expect(limit).toHaveValue(500);
    expect(screen.getByRole('radio', { name: 'All folders' })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: 'Chosen folders' }));
    await user.type(screen.getByRole('combobox', { name: 'Folders' }), 'Harb');
    await user.click(await screen.findByRole('option', { name: 'Harbor Wealth' }));
    await user.clear(limit);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(patches).toEqual([{ rule_folders: [5], approval_limit: null }]));
  });

  it('names the folders already chosen, and refuses none chosen', async () => {
    group.rule_folders = [6];
    admin();
    renderApp('/permissions/3');
    const user = userEvent.setup();
    const picker = await screen.findByRole('combobox', { name: 'Folders' });
    const field = picker.closest('.MuiAutocomplete-root') as HTMLElement;
    expect(await within(field).findByText('Summit Advisors')).toBeInTheDocument();
    await user.click(within(field).getByTestId('CancelIcon'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Choose at least one folder, or All folders.')).toBeInTheDocument();
    expect(patches).toEqual([]);
  });
});
