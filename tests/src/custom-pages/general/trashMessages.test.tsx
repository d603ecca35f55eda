/**
 * What the General view says when a folder or rule goes to the trash and comes back: a folder with
 * active rules says how many stop (1 rule / N rules), a rule restored by Undo says whether it is active.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FolderDto } from '../../../../shared/folders';
import { paths } from '../../../../src/providers/apiPaths';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderApp, signIn, signOut } from '../../../support/renderApp';
import { withAccesses } from '../../../support/users';
import { folder, pageOf, ruleRow } from '../../fixtures/rules';

const server = setupMswServer();

let folders: FolderDto[];
let calls: string[];

beforeEach(() => {
  signOut();
  calls = [];
  folders = [
    folder(1, { name: 'Three Active', rules: [1, 2, 3, 4].map((n) => ruleRow(100 + n, 1, { is_active: n !== 4 })) }),
    folder(2, { name: 'One Active', rules: [ruleRow(201, 2, { is_active: true }), ruleRow(202, 2)] }),
    folder(3, { name: 'None Active', rules: [ruleRow(301, 3)] }),
  ];
  server.use(
    http.get(paths.generalPage, ({ request }) => HttpResponse.json(pageOf(folders, new URL(request.url)))),
    http.get(paths.generalPageFolder(':id'), ({ params }) =>
      HttpResponse.json(folders.find((f) => f.id === Number(params.id))),
    ),
    http.post(paths.folderMoveToTrash(':id'), ({ params }) => {
      calls.push(`trash folder ${params.id}`);
      folders = folders.filter((f) => f.id !== Number(params.id));
      return HttpResponse.json({});
    }),
    http.post(paths.ruleMoveToTrash(':id'), ({ params }) => {
      calls.push(`trash rule ${params.id}`);
      return HttpResponse.json({});
    }),
  );
  signIn(withAccesses('read_rules', 'create_update_rules', 'delete_rules', 'view_logs'));
});

async function trashFolder(name: string) {
  renderApp('/');
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: `Move folder ${name} to the trash` }));
  await waitFor(() => expect(screen.queryByRole('listitem', { name })).not.toBeInTheDocument());
  return user;
}

describe('General view: trash messages', () => {
  it('says that a trashed folder’s active rules stop, counted', async () => {
    await trashFolder('Three Active');
    expect(
      await screen.findByText('Folder Three Active moved to the trash: its 3 active rules stop'),
    ).toBeInTheDocument();
    expect(calls).toEqual(['trash folder 1']);
  });

  it('says "1 active rule stops" in the singular, with Undo', async () => {
    await trashFolder('One Active');
    const message = await screen.findByText('Folder One Active moved to the trash: its 1 active rule stops');
    const snackbar = message.closest<HTMLElement>('.MuiSnackbarContent-root')!;
    expect(within(snackbar).getByRole('button', { name: 'Undo' })).toBeInTheDocument();
  });

  it('says only that it moved when no rule of the folder is active', async () => {
    await trashFolder('None Active');
    expect(await screen.findByText('Folder None Active moved to the trash')).toBeInTheDocument();
  });

  it.each([
    [true, 'Rule Rule 201 restored (active)'],
    [false, 'Rule Rule 201 restored (off)'],
  ])('a rule brought back by Undo says whether it is active (is_active %s)', async (isActive, message) => {
    server.use(
      http.post(paths.ruleRestore(201), () => {
        calls.push('restore rule 201');
        return HttpResponse.json({ id: 201, name: 'Rule 201', is_active: isActive, is_deleted: false });
      }),
    );
    renderApp('/');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Show the rules of One Active' }));
    await user.click(await screen.findByRole('button', { name: 'Move Rule 201 to the trash' }));
    const trashed = await screen.findByText('Rule moved to the trash');
    await user.click(
      within(trashed.closest<HTMLElement>('.MuiSnackbarContent-root')!).getByRole('button', { name: 'Undo' }),
    );
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(calls).toEqual(['trash rule 201', 'restore rule 201']);
  });
});
