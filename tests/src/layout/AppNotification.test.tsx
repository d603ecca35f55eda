import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useNotify } from 'react-admin';
import { AppNotification, undoAction } from '../../../src/layout/AppNotification';
import { renderWithAdmin } from '../../support/renderApp';

function NotifyButton() {
  const notify = useNotify();
  return (
    <button type="button" onClick={() => notify('Folder created', { type: 'success' })}>
      Notify
    </button>
  );
}

/** Shows the snackbar and returns its content once it has come in. */
async function showSnackbar() {
  renderWithAdmin(
    <>
      <NotifyButton />
      <AppNotification />
    </>,
  );
  await userEvent.setup().click(screen.getByRole('button', { name: 'Notify' }));
  const content = (await screen.findByText('Folder created')).closest<HTMLElement>('.MuiSnackbarContent-root')!;
  await waitFor(() => expect(content).toBeVisible());
  return content;
}

function drag(element: HTMLElement, distance: number, pointerType = 'touch') {
  fireEvent.pointerDown(element, { pointerId: 1, pointerType, clientX: 200, clientY: 40, button: 0 });
  fireEvent.pointerMove(element, { pointerId: 1, pointerType, clientX: 200 + distance / 2, clientY: 40 });
  fireEvent.pointerMove(element, { pointerId: 1, pointerType, clientX: 200 + distance, clientY: 40 });
  fireEvent.pointerUp(element, { pointerId: 1, pointerType, clientX: 200 + distance, clientY: 40 });
}

describe('app snackbar (a swipe of more than 50 px closes it)', () => {
  it('closes after a 60 px swipe to the right', async () => {
    const content = await showSnackbar();
    drag(content, 60);
    await waitFor(() => expect(screen.queryByText('Folder created')).not.toBeInTheDocument());
  });

  it('closes after a 60 px swipe to the left with a mouse', async () => {
    const content = await showSnackbar();
    drag(content, -60, 'mouse');
    await waitFor(() => expect(screen.queryByText('Folder created')).not.toBeInTheDocument());
  });

  it('stays after a 30 px swipe, back in place', async () => {
    const content = await showSnackbar();
    drag(content, 30);
    expect(screen.getByText('Folder created')).toBeInTheDocument();
    expect(content).toBeVisible();
    expect(content.style.transform).not.toContain('translateX');
  });
});

function ActionButtons({ onUndo }: { onUndo: () => void }) {
  const notify = useNotify();
  return (
    <>
      <button type="button" onClick={() => notify('Folder created', { type: 'success' })}>
        Create
      </button>
      <button type="button" onClick={() => notify('Rule added', { type: 'success' })}>
        Add rule
      </button>
      <button type="button" onClick={() => notify('Moved to the trash', { type: 'success', ...undoAction(onUndo) })}>
        Trash
      </button>
    </>
  );
}

describe('a message belongs to the action that caused it', () => {
  it('a newer message replaces the one on screen at once, and the queued ones in between are dropped', async () => {
    const user = userEvent.setup();
    renderWithAdmin(
      <>
        <ActionButtons onUndo={() => undefined} />
        <AppNotification />
      </>,
    );
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await screen.findByText('Folder created');
    await user.click(screen.getByRole('button', { name: 'Add rule' }));
    await user.click(screen.getByRole('button', { name: 'Trash' }));
    // Long before the 5 s of the first message are over, the last action's message is on screen.
    await screen.findByText('Moved to the trash', {}, { timeout: 1500 });
    await waitFor(() => expect(screen.queryByText('Folder created')).not.toBeInTheDocument());
    expect(screen.queryByText('Rule added')).not.toBeInTheDocument();
  });

  it('Undo on a message calls its undo and closes the message', async () => {
    const user = userEvent.setup();
    const undone: string[] = [];
    renderWithAdmin(
      <>
        <ActionButtons onUndo={() => undone.push('restored')} />
        <AppNotification />
      </>,
    );
    await user.click(screen.getByRole('button', { name: 'Trash' }));
    await screen.findByText('Moved to the trash');
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(undone).toEqual(['restored']);
    await waitFor(() => expect(screen.queryByText('Moved to the trash')).not.toBeInTheDocument());
  });
});
