/**
 * The app-wide snackbar: react-admin's Notification with the 5 s of docs/contract.md#constants (unless a message asks for
 * its own duration), and a horizontal swipe of more than 50 px closes it (mouse, pen or touch).
 * A message belongs to the action that caused it: a newer one replaces the one on screen at once
 * instead of waiting in a queue behind it. `undoAction` puts an Undo button on a message.
 */
import { Button, SnackbarContent, type SnackbarContentProps } from '@mui/material';
import { forwardRef, useEffect, useRef, useState, type PointerEvent } from 'react';
import { Notification, useCloseNotification, useNotificationContext, useTranslate } from 'react-admin';
import { SNACKBAR_SWIPE_CLOSE_PX, SNACKBAR_TIMEOUT_MS } from '../domain/constants';

/** Pointer handlers that follow a horizontal drag and call `onSwipe` when it ends past `threshold`. */
export function useSwipeToClose(onSwipe: () => void, threshold = SNACKBAR_SWIPE_CLOSE_PX) {
  const startX = useRef<number | null>(null);
  const [offset, setOffset] = useState(0);

  const end = (event: PointerEvent<HTMLElement>) => {
    if (startX.current === null) return;
    const distance = event.clientX - startX.current;
    startX.current = null;
    setOffset(0);
    if (Math.abs(distance) > threshold) onSwipe();
  };

  return {
    offset,
    handlers: {
      onPointerDown: (event: PointerEvent<HTMLElement>) => {
        if (event.pointerType === 'mouse' && event.button !== 0) return;
        // A press on the Close or Undo button is a click, not a swipe.
        if ((event.target as HTMLElement).closest('button, a')) return;
        startX.current = event.clientX;
        event.currentTarget.setPointerCapture?.(event.pointerId);
      },
      onPointerMove: (event: PointerEvent<HTMLElement>) => {
        if (startX.current !== null) setOffset(event.clientX - startX.current);
      },
      onPointerUp: end,
      onPointerCancel: () => {
        startX.current = null;
        setOffset(0);
      },
    },
  };
}

/** While a message is on screen, a newer one closes it, and only the newest of those waiting stays. */
function useNewestMessageWins(close: () => void) {
  const { notifications, setNotifications } = useNotificationContext();
  useEffect(() => {
    if (!notifications.length) return;
    if (notifications.length > 1) setNotifications((waiting) => waiting.slice(-1));
    close();
  }, [notifications, setNotifications, close]);
}

function UndoButton({ onUndo }: { onUndo: () => void }) {
  const translate = useTranslate();
  const close = useCloseNotification();
  return (
    <Button
      color="inherit"
      size="small"
      onClick={() => {
        close();
        onUndo();
      }}
    >
      {translate('ra.action.undo')}
    </Button>
  );
}

/** Options for notify() that put an Undo button on the message, calling `onUndo` when pressed. */
export const undoAction = (onUndo: () => void) => ({ action: <UndoButton onUndo={onUndo} /> });

/** The snackbar's content: it follows the finger and fades as it goes, then closes past the threshold. */
const SwipeableContent = forwardRef<HTMLDivElement, SnackbarContentProps>(function SwipeableContent(
  { style, sx, ...props },
  ref,
) {
  const close = useCloseNotification();
  useNewestMessageWins(close);
  const { offset, handlers } = useSwipeToClose(close);
  const dragging = offset !== 0;
  return (
    <SnackbarContent
      ref={ref}
      {...props}
      {...handlers}
      style={{
        ...style,
        // While dragging it follows the pointer at once; on release the grow transition eases it back.
        ...(dragging
          ? {
              transform: `translateX(${offset}px)`,
              opacity: Math.max(0.3, 1 - Math.abs(offset) / 200),
              transition: 'none',
            }
          : {}),
      }}
      // Vertical scrolling stays with the browser; horizontal movement comes to the handlers.
      sx={[
        { touchAction: 'pan-y', userSelect: 'none', cursor: dragging ? 'grabbing' : undefined },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    />
  );
});

export function AppNotification() {
  return <Notification autoHideDuration={SNACKBAR_TIMEOUT_MS} slots={{ content: SwipeableContent }} />;
}
