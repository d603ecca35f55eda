import { fireEvent, screen, waitFor, within } from '@testing-library/react';
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

function SeverityButtons() {
  const notify = useNotify();
  return (
    <>
      <button type="button" onClick={() => notify('Folder saved', { type: 'success' })}>
        Succeed
      </button>
      <button type="button" onClick={() => notify('The server could not be reached', { type: 'error' })}>
        Fail
      </button>
      <button type="button" onClick={() => notify('Check the budget', { type: 'warning' })}>
        Warn
      </button>
      <button type="button" onClick={() => notify('Nothing to show', { type: 'info' })}>
        Inform
      </button>
    </>
  );
}

describe('every snackbar has one look; its type is read out, not coloured', () => {
  it('success, error, warning and info share one background, and each names its type in its alert', async () => {
    const user = userEvent.setup();
    renderWithAdmin(
      <>
        <SeverityButtons />
        <AppNotification />
      </>,
    );
    const seen: { background: string; color: string; className: string }[] = [];
    for (const [button, text, type] of [
      ['Succeed', 'Folder saved', 'Done'],
      ['Fail', 'The server could not be reached', 'Error'],
      ['Warn', 'Check the budget', 'Warning'],
      ['Inform', 'Nothing to show', 'Note'],
    ] as const) {
      await user.click(screen.getByRole('button', { name: button }));
      const content = (await screen.findByText(text)).closest<HTMLElement>('.MuiSnackbarContent-root')!;
      const alert = screen.getByRole('alert');
      expect(alert).toBe(content);
      // The text stays the message alone; the type is the name of the icon before it.
      expect(alert).toHaveTextContent(new RegExp(`^${text}$`));
      expect(within(alert).getByRole('img', { name: type })).toBeInTheDocument();
      const style = getComputedStyle(content);
      seen.push({ background: style.backgroundColor, color: style.color, className: content.className });
    }
    expect(seen[0]!.background).toBe('rgb(33, 33, 33)'); // grey.900
    for (const look of seen) {
      expect(look.background).toBe(seen[0]!.background);
      expect(look.color).toBe(seen[0]!.color);
      expect(look.className).not.toMatch(/RaNotification-(success|error|warning)/);
    }
  });
});
