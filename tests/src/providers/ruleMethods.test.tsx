/**
 * One data layer for the rules screens: a change made on one screen is what the next screen shows,
 * in the same visit (no reload), against a small in-memory server.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FolderDto } from '../../../shared/folders';
import type { RuleDto } from '../../../shared/rules';
import { paths } from '../../../src/providers/apiPaths';
import { http, HttpResponse, setupMswServer } from '../../support/msw';
import { renderApp, signIn, signOut } from '../../support/renderApp';
import { withAccesses } from '../../support/users';
import { folder, pageOf, rule, ruleRow, timezones } from '../fixtures/rules';

const server = setupMswServer();

let folders: FolderDto[];
let ruleFive: RuleDto;

const trashedAt = '2025-03-01T10:00:00Z';

/** The server's own bookkeeping: a trashed folder leaves the General view and enters the trash. */
beforeEach(() => {
  signOut();
  folders = [folder(1), folder(2, { name: 'Beta Folder' }), folder(3)];
  ruleFive = rule(5, { name: 'Rule 100', folder: { ...rule(5).folder, id: 1 } });
  const setDeleted = (id: number, deleted: boolean) => {
    folders = folders.map((f) =>
      f.id === id
        ? {
            ...f,
            is_deleted: deleted,
            deleted_at: deleted ? trashedAt : null,
            rules: f.rules.map((r) => ({ ...r, is_deleted: deleted })),
          }
        : f,
    );
    return HttpResponse.json(folders.find((f) => f.id === id));
  };
  server.use(
    http.get(paths.generalPage, ({ request }) => {
      const url = new URL(request.url);
      return HttpResponse.json(
        pageOf(
          folders.filter((f) => !f.is_deleted),
          url,
        ),
      );
    }),
    http.get(paths.trash, ({ request }) => {
      const url = new URL(request.url);
      const trashed = folders.filter((f) => f.is_deleted).map((f) => ({ ...f, trashed_at: trashedAt }));
      return HttpResponse.json(pageOf(trashed, url));
    }),
    http.post(paths.folderMoveToTrash(':id'), ({ params }) => setDeleted(Number(params.id), true)),
    http.post(paths.folderRestore(':id'), ({ params }) => setDeleted(Number(params.id), false)),
    http.get(paths.rule(5), () => HttpResponse.json(ruleFive)),
    http.get(paths.ruleTimezones, () => HttpResponse.json(timezones)),
    // The editor's Runs and Exemptions panels: this rule has none yet.
    http.get('/api/rule/5/runs/', () => HttpResponse.json({ count: 0, next: null, previous: null, results: [] })),
    http.get('/api/rules/5/exemptions/', () =>
      HttpResponse.json({ count: 0, next: null, previous: null, results: [] }),
    ),
    http.patch(paths.rule(5), async ({ request }) => {
      const patch = (await request.json()) as { name: string };
      ruleFive = { ...ruleFive, ...patch };
      folders = folders.map((f) => (f.id === 1 ? { ...f, rules: [ruleRow(5, 1, { name: patch.name })] } : f));
      return HttpResponse.json(ruleFive);
    }),
  );
  signIn(withAccesses('read_rules', 'create_update_rules', 'delete_rules', 'view_logs'));
});

describe('A change on one screen is seen on the next', () => {
  it('a folder trashed in the General view is in the Trash; restored there, the General view shows it again', async () => {
    renderApp('/');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Move folder Beta Folder to the trash' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Beta Folder' })).not.toBeInTheDocument());

    await user.click(screen.getByRole('link', { name: 'Trash' }));
    const trashed = await screen.findByRole('listitem', { name: 'Beta Folder' });
    await user.click(within(trashed).getByRole('button', { name: 'Restore Beta Folder' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Beta Folder' })).not.toBeInTheDocument());
    expect(await screen.findByText('The trash is empty.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Back to the folders' }));
    expect(await screen.findByRole('listitem', { name: 'Beta Folder' })).toBeInTheDocument();
    expect(screen.getAllByRole('listitem').map((li) => li.getAttribute('aria-label'))).toEqual([
      'Client 1',
      'Beta Folder',
      'Client 3',
    ]);
  });

  it('a rule renamed in the editor shows its new name in the folder tree, which was left open', async () => {
    renderApp('/');
    const user = userEvent.setup();
    folders = folders.map((f) => (f.id === 1 ? { ...f, rules: [ruleRow(5, 1, { name: 'Rule 100' })] } : f));
    await user.click(await screen.findByRole('button', { name: 'Show the rules of Client 1' }));
    await user.click(await screen.findByRole('link', { name: 'Rule 100' }));

    // The editor is a large page: label and text queries keep this test quick in jsdom.
    fireEvent.change(await screen.findByLabelText('Rule name'), { target: { value: 'Renamed' } });
    await user.click(screen.getByText('Save'));

    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent(/^\/$/));
    expect(await screen.findByRole('link', { name: 'Renamed' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Rule 100' })).not.toBeInTheDocument();
  });
});
