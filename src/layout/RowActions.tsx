/**
 * A row's actions: side by side as icon buttons where there is room, and behind one "More actions"
 * menu on a phone-wide screen, so a row never pushes the page sideways. Each action is a
 * <RowAction>; it renders as an icon button or a menu item, whichever its <RowActions> asks for.
 * The menu stays mounted while closed, so a dialog an action opened outlives the menu.
 */
import MoreVertIcon from '@mui/icons-material/MoreVert';
import {
  Button,
  IconButton,
  ListItemIcon,
  ListItemText,
  Menu,
  MenuItem,
  Tooltip,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { createContext, useContext, useState, type MouseEvent, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';

interface RowActionsMode {
  inMenu: boolean;
  closeMenu(): void;
}

const Mode = createContext<RowActionsMode>({ inMenu: false, closeMenu: () => undefined });

/** True where row actions go behind a menu (below MUI's sm breakpoint, 600 px). */
export const useNarrowScreen = () => useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });

/** Whether the actions rendered here sit in a menu (render menu items) or in the row. */
export const useRowActionsMode = () => useContext(Mode);

export function RowActions({ label, children }: { label: string; children: ReactNode }) {
  const narrow = useNarrowScreen();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  if (!narrow) return <>{children}</>;
  const close = () => setAnchor(null);
  return (
    <>
      <IconButton
        size="small"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={anchor ? true : undefined}
        onClick={(event: MouseEvent<HTMLElement>) => {
          event.stopPropagation();
          setAnchor(event.currentTarget);
        }}
      >
        <MoreVertIcon fontSize="small" />
      </IconButton>
      <Menu
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={close}
        keepMounted
        // A click in the menu is not a click on the row beneath it (React passes it through portals).
        onClick={(event) => event.stopPropagation()}
        slotProps={{ list: { 'aria-label': label } }}
      >
        <Mode.Provider value={{ inMenu: true, closeMenu: close }}>{children}</Mode.Provider>
      </Menu>
    </>
  );
}

export interface RowActionProps {
  label: string;
  icon: ReactNode;
  /** Short text shown on a text button in the row (icon only when absent). */
  text?: string;
  /** In the row, the icon beside the text (a text button without it shows the text alone). */
  withIcon?: boolean;
  color?: 'primary' | 'error';
  disabled?: boolean;
  onClick?: () => void;
  /** A route to open instead of onClick. */
  to?: string;
}

export function RowAction({ label, icon, text, withIcon, color, disabled, onClick, to }: RowActionProps) {
  const { inMenu, closeMenu } = useRowActionsMode();
  const link = to && !disabled ? { component: RouterLink, to } : {};
  const click = (event: MouseEvent) => {
    event.stopPropagation();
    if (inMenu) closeMenu();
    onClick?.();
  };
  if (inMenu) {
    return (
      <MenuItem disabled={disabled} onClick={click} {...link}>
        <ListItemIcon>{icon}</ListItemIcon>
        <ListItemText>{label}</ListItemText>
      </MenuItem>
    );
  }
  return (
    <Tooltip title={label}>
      <span>
        {text ? (
          <Button
            size="small"
            variant="outlined"
            color={color}
            startIcon={withIcon ? icon : undefined}
            sx={{ minWidth: 32, px: withIcon ? 1 : 0.5 }}
            aria-label={label}
            disabled={disabled}
            onClick={click}
            {...link}
          >
            {text}
          </Button>
        ) : (
          <IconButton size="small" aria-label={label} disabled={disabled} onClick={click} {...link}>
            {icon}
          </IconButton>
        )}
      </span>
    </Tooltip>
  );
}
