import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TrashFolderDto } from '../../../../src/providers/ruleMethods';
import { paths } from '../../../../src/providers/apiPaths';
import { captureConsoleErrors, loggedHttpStatuses } from '../../../support/consoleErrors';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderApp, signIn, signOut } from '../../../support/renderApp';
import { withAccesses } from '../../../support/users';
import { folder, pageOf, ruleRow } from '../../fixtures/rules';

const server = setupMswServer();

let trash: TrashFolderDto[];
let queries: URLSearchParams[];
let calls: string[];

const trashed = (id: number, overrides: Partial<TrashFolderDto> = {}): TrashFolderDto => ({
  ...folder(id, {
    is_deleted: true,
    deleted_at: '2025-03-01T10:00:00Z',
    rules: [ruleRow(id * 100, id, { is_deleted: true, deleted_at: '2025-03-01T10:00:00Z' })],
  }),
  trashed_at: '2025-03-01T10:00:00Z',
  ...overrides,
});

beforeEach(() => {
  signOut();
  queries = [];
  calls = [];
  trash = [
    trashed(1, { name: 'Gone Folder' }),
    {
      ...folder(2, {
        name: 'Live Folder',
        rules: [ruleRow(201, 2, { name: 'Trashed rule', is_deleted: true, deleted_at: '2025-03-02T10:00:00Z' })],
      }),
      trashed_at: '2025-03-02T10:00:00Z',
    },
  ];
  server.use(
    http.get(paths.trash, ({ request }) => {
      const url = new URL(request.url);
      queries.push(url.searchParams);
      const search = url.searchParams.get('search')?.toLowerCase();
      return HttpResponse.json(
        pageOf(search ? trash.filter((f) => f.name.toLowerCase().includes(search)) : trash, url),
      );
    }),
    http.post(paths.folderRestore(1), () => {
      calls.push('restore folder 1');
      trash = trash.filter((f) => f.id !== 1);
      return HttpResponse.json({});
    }),
    http.delete(paths.ruleDelete(201), () => {
      calls.push('delete rule 201');
      trash = trash.filter((f) => f.id !== 2);
      return new HttpResponse(null, { status: 204 });
    }),
    http.delete(paths.trashFolder(1), () => {
      calls.push('delete folder 1');
      return new HttpResponse(null, { status: 204 });
    }),
  );
  signIn(withAccesses('read_rules', 'create_update_rules', 'delete_rules', 'view_logs'));
});

describe('Trash', () => {
  it('lists trashed folders with their rules and live folders with their trashed rules, 10 a page', async () => {
    renderApp('/trash');
    const gone = await screen.findByRole('listitem', { name: 'Gone Folder' });
    expect(within(gone).getByRole('button', { name: 'Restore Gone Folder' })).toBeEnabled();
    expect(within(gone).getByRole('button', { name: 'Restore Rule 100' })).toBeEnabled();
    const live = screen.getByRole('listitem', { name: 'Live Folder' });
    expect(within(live).queryByRole('button', { name: 'Restore Live Folder' })).not.toBeInTheDocument();
    expect(within(live).getByText(/Folder still in use/)).toBeInTheDocument();
    expect(within(live).getByRole('link', { name: 'Log of rule Trashed rule' })).toHaveAttribute(
      'href',
      '/log?rule_id=201',
    );
    expect(Object.fromEntries(queries[0]!)).toEqual({ limit: '10', offset: '0', ordering: '-trashed_at' });
    expect(screen.getByRole('heading', { name: 'Trash', level: 1 })).toBeInTheDocument();
  });

  it('is reached as /trash/ too, and searches after typing stops', async () => {
    renderApp('/trash/');
    await screen.findByRole('listitem', { name: 'Gone Folder' });
    await userEvent
      .setup()
      .type(screen.getByRole('searchbox', { name: 'Search for Client, Ad account or rule' }), 'live');
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Gone Folder' })).not.toBeInTheDocument());
    // The list may show its loading state before the search reaches the server: wait for the answer.
    expect(await screen.findByRole('listitem', { name: 'Live Folder' })).toBeInTheDocument();
    expect(screen.queryByRole('listitem', { name: 'Gone Folder' })).not.toBeInTheDocument();
    expect(queries.filter((q) => q.get('search')).map((q) => q.get('search'))).toEqual(['live']);
  });

  it('restores a folder and shows the trash without it', async () => {
    renderApp('/trash');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Restore Gone Folder' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Gone Folder' })).not.toBeInTheDocument());
    expect(calls).toEqual(['restore folder 1']);
    expect(await screen.findByText('Restored')).toBeInTheDocument();
  });

  it.each([
    [true, 'Rule Trashed rule restored (active)'],
    [false, 'Rule Trashed rule restored (off)'],
  ])('restores a rule and says whether it is active (is_active %s)', async (isActive, message) => {
    server.use(
      http.post(paths.ruleRestore(201), () => {
        calls.push('restore rule 201');
        trash = trash.filter((f) => f.id !== 2);
        return HttpResponse.json({ id: 201, name: 'Trashed rule', is_active: isActive, is_deleted: false });
      }),
    );
    renderApp('/trash');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Restore Trashed rule' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(calls).toEqual(['restore rule 201']);
  });

  it("deletes only after 'Confirm delete?': Cancel keeps it, Delete removes it", async () => {
    renderApp('/trash');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete Trashed rule for good' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm delete?' });
    expect(within(dialog).getByText('Are you sure you want to delete?')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete Trashed rule for good' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Confirm delete?' })).getByRole('button', { name: 'Delete' }),
    );
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Live Folder' })).not.toBeInTheDocument());
    expect(calls).toEqual(['delete rule 201']);
  });

  it('shows a failed delete in the error list', async () => {
    const consoleErrors = captureConsoleErrors();
    server.use(
      http.delete(paths.trashFolder(1), () =>
        HttpResponse.json({ detail: 'Move the folder to the trash before deleting it.' }, { status: 400 }),
      ),
    );
    renderApp('/trash');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete Gone Folder for good' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Confirm delete?' })).getByRole('button', { name: 'Delete' }),
    );
    expect(
      await within(await screen.findByRole('alert')).findByText('Move the folder to the trash before deleting it.'),
    ).toBeInTheDocument();
    expect(loggedHttpStatuses(consoleErrors)).toEqual([400]);
  });
});
