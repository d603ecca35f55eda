/**
 * Unsaved changes (docs/screens.md, Edit rule): leaving inside the app opens 'Leave the page?' with Cancel
 * and Leave; closing or reloading the tab gets the browser's unload warning.
 * The app runs on a data router, so useBlocker holds every in-app navigation: links, navigate()
 * calls and the browser's back and forward buttons.
 */
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useEffect, useRef } from 'react';
import { useTranslate } from 'react-admin';
import { useBlocker } from 'react-router-dom';

export interface LeaveGuardProps {
  /** Asked at the moment of leaving: whether there is anything to lose. */
  shouldBlock: () => boolean;
}

function LeaveDialog({ open, onStay, onLeave }: { open: boolean; onStay: () => void; onLeave: () => void }) {
  const translate = useTranslate();
  return (
    <Dialog open={open} onClose={onStay} aria-labelledby="leave-dialog-title">
      <DialogTitle id="leave-dialog-title">{translate('rules.editor.leave_title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{translate('rules.editor.leave_text')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onStay} autoFocus>
          {translate('rules.editor.leave_cancel')}
        </Button>
        <Button color="error" onClick={onLeave}>
          {translate('rules.editor.leave_confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function BlockerGuard({ shouldBlock }: LeaveGuardProps) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => currentLocation.pathname !== nextLocation.pathname && shouldBlock(),
  );
  return (
    <LeaveDialog
      open={blocker.state === 'blocked'}
      onStay={() => blocker.reset?.()}
      onLeave={() => blocker.proceed?.()}
    />
  );
}

function useUnloadWarning(shouldBlock: () => boolean) {
  const translate = useTranslate();
  const latest = useRef(shouldBlock);
  latest.current = shouldBlock;
  const message = translate('rules.editor.unload_warning');
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (!latest.current()) return undefined;
      event.preventDefault();
      // Browsers show their own words now; older ones show this text.
      event.returnValue = message;
      return message;
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [message]);
}

export function LeaveGuard({ shouldBlock }: LeaveGuardProps) {
  useUnloadWarning(shouldBlock);
  return <BlockerGuard shouldBlock={shouldBlock} />;
}
