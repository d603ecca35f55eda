/** The header of docs/screens.md: menu button, page-name slot, content slot, loading indicator, user menu. */
import MenuIcon from '@mui/icons-material/Menu';
import { AppBar, IconButton, Toolbar } from '@mui/material';
import { LoadingIndicator, TitlePortal, useTranslate } from 'react-admin';
import { HeaderContentSlot } from './HeaderSlots';
import { SidePanel } from './SidePanel';
import { useSidePanel } from './SidePanelState';
import { UserMenu } from './UserMenu';

export function AppHeader() {
  const translate = useTranslate();
  const { setOpen } = useSidePanel();
  return (
    <>
      <AppBar position="fixed" color="primary" elevation={1}>
        <Toolbar variant="dense" sx={{ gap: 1 }}>
          <IconButton color="inherit" edge="start" aria-label={translate('app.nav.open')} onClick={() => setOpen(true)}>
            <MenuIcon />
          </IconButton>
          <TitlePortal />
          <HeaderContentSlot />
          <LoadingIndicator />
          <UserMenu />
        </Toolbar>
      </AppBar>
      <SidePanel />
    </>
  );
}
