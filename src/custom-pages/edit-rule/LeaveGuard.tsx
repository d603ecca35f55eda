/**
 * Unsaved changes (SPEC §2, Edit rule): leaving inside the app opens 'Leave the page?' with Cancel
 * and Leave; closing or reloading the tab gets the browser's unload warning.
 * With a data router the navigation is held by useBlocker (links, back and forward buttons); with a
 * plain <BrowserRouter> the router's navigator is wrapped instead, which catches the app's own
 * links and navigate() calls.
 */
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useContext, useEffect, useRef, useState } from 'react';
import { useTranslate } from 'react-admin';
import { UNSAFE_DataRouterContext, UNSAFE_NavigationContext, useBlocker, type Navigator } from 'react-router-dom';

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
  const blocker = useBlocker(({ currentLocation, nextLocation }) => currentLocation.pathname !== nextLocation.pathname && shouldBlock());
  return <LeaveDialog open={blocker.state === 'blocked'} onStay={() => blocker.reset?.()} onLeave={() => blocker.proceed?.()} />;
}

type NavigateMethod = Navigator['push'];

function NavigatorGuard({ shouldBlock }: LeaveGuardProps) {
  const { navigator } = useContext(UNSAFE_NavigationContext);
  const [pending, setPending] = useState<(() => void) | null>(null);
  const latest = useRef(shouldBlock);
  latest.current = shouldBlock;

  useEffect(() => {
    const original = { push: navigator.push, replace: navigator.replace };
    const hold =
      (method: NavigateMethod): NavigateMethod =>
      (...args) => {
        if (!latest.current()) return method.apply(navigator, args);
        setPending(() => () => method.apply(navigator, args));
      };
    navigator.push = hold(original.push);
    navigator.replace = hold(original.replace);
    return () => {
      navigator.push = original.push;
      navigator.replace = original.replace;
    };
  }, [navigator]);

  return (
    <LeaveDialog
      open={pending !== null}
      onStay={() => setPending(null)}
      onLeave={() => {
        const leave = pending;
        setPending(null);
        leave?.();
      }}
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
  const dataRouter = useContext(UNSAFE_DataRouterContext);
  return dataRouter ? <BlockerGuard shouldBlock={shouldBlock} /> : <NavigatorGuard shouldBlock={shouldBlock} />;
}
