/**
 * The app-wide snackbar: react-admin's Notification with the 5 s of docs/contract.md#constants (unless a message asks for
 * its own duration), and a horizontal swipe of more than 50 px closes it (mouse, pen or touch).
 * A message belongs to the action that caused it: a newer one replaces the one on screen at once
 * instead of waiting in a queue behind it. `undoAction` puts an Undo button on a message.
 * Every message has the same dark background, whatever its type (success, info, warning, error):
 * react-admin's coloured type classes are taken off, and the type shows as an icon before the text,
 * named for screen readers ('Error', 'Done'…) inside the snackbar's role="alert".
 */
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutline';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutline';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import { Box, Button, SnackbarContent, type SnackbarContentProps } from '@mui/material';
import { forwardRef, useEffect, useRef, useState, type PointerEvent } from 'react';
import { Notification, useCloseNotification, useNotificationContext, useTranslate } from 'react-admin';
import { SNACKBAR_SWIPE_CLOSE_PX, SNACKBAR_TIMEOUT_MS } from '../../shared/constants';

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

export type Severity = 'success' | 'info' | 'warning' | 'error';

const SEVERITY_ICONS: Record<Severity, typeof InfoOutlinedIcon> = {
  success: CheckCircleOutlineIcon,
  info: InfoOutlinedIcon,
  warning: WarningAmberIcon,
  error: ErrorOutlineIcon,
};

/** The one look of every snackbar: the background and text colours do not depend on the message's type. */
export const SNACKBAR_COLORS = { bgcolor: 'grey.900', color: 'common.white' } as const;

/** The message's type from react-admin's class (`RaNotification-error`…; none for info), and the classes without it. */
export function severityOf(className: string | undefined): { severity: Severity; className: string } {
  const classes = (className ?? '').split(/\s+/).filter(Boolean);
  const typed = classes.find((c) => /^RaNotification-(success|warning|error)$/.test(c));
  return {
    severity: typed ? (typed.slice('RaNotification-'.length) as Severity) : 'info',
    className: classes.filter((c) => c !== typed).join(' '),
  };
}

/** The message with its type's icon before it; the icon's name is the type, read before the text. */
function SeverityMessage({ severity, message }: { severity: Severity; message: SnackbarContentProps['message'] }) {
  const translate = useTranslate();
  const Icon = SEVERITY_ICONS[severity];
  return (
    <Box component="span" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      <Box
        component="span"
        role="img"
        aria-label={translate(`app.notification.${severity}`)}
        sx={{ display: 'inline-flex', flexShrink: 0 }}
      >
        <Icon fontSize="small" aria-hidden />
      </Box>
      <span>{message}</span>
    </Box>
  );
}

/** The snackbar's content: it follows the finger and fades as it goes, then closes past the threshold. */
const SwipeableContent = forwardRef<HTMLDivElement, SnackbarContentProps>(function SwipeableContent(
  { style, sx, className: givenClassName, message, ...props },
  ref,
) {
  const { severity, className } = severityOf(givenClassName);
  const close = useCloseNotification();
  useNewestMessageWins(close);
  const { offset, handlers } = useSwipeToClose(close);
  const dragging = offset !== 0;
  return (
    <SnackbarContent
      ref={ref}
      {...props}
      className={className}
      message={<SeverityMessage severity={severity} message={message} />}
      data-severity={severity}
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
        { ...SNACKBAR_COLORS, touchAction: 'pan-y', userSelect: 'none', cursor: dragging ? 'grabbing' : undefined },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    />
  );
});

export function AppNotification() {
  return <Notification autoHideDuration={SNACKBAR_TIMEOUT_MS} slots={{ content: SwipeableContent }} />;
}
