/** The header of docs/screens.md: menu button, page-name slot, content slot, loading indicator, user menu. */
import MenuIcon from '@mui/icons-material/Menu';
import { AppBar, IconButton, Toolbar } from '@mui/material';
import { LoadingIndicator, TitlePortal, useTranslate } from 'react-admin';
import { type ComponentProps, lazy, Suspense, useState } from 'react';
import { HeaderContentSlot } from './HeaderSlots';
import { useSidePanel } from './SidePanelState';
import { UserMenu } from './UserMenu';

/**
 * React-admin's indicator hands its other props to the spinner it shows while a request runs, but
 * its type names none: the spinner's accessible name (a progressbar needs one) goes through here.
 */
const NamedLoadingIndicator = LoadingIndicator as (
  props: ComponentProps<typeof LoadingIndicator> & { 'aria-label': string },
) => ReturnType<typeof LoadingIndicator>;

const LazySidePanel = lazy(() => import('./SidePanel').then((module) => ({ default: module.SidePanel })));

/**
 * The side panel loads the first time it opens (it starts closed), so the first screen does not
 * download the drawer, its list and tooltips (docs/frontend.md, "Bundle"); it stays mounted
 * afterwards, so it closes with its animation.
 */
function SidePanelOnceOpened() {
  const { open } = useSidePanel();
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened ? (
    <Suspense fallback={null}>
      <LazySidePanel />
    </Suspense>
  ) : null;
}

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
          <NamedLoadingIndicator aria-label={translate('ra.page.loading')} />
          <UserMenu />
        </Toolbar>
      </AppBar>
      <SidePanelOnceOpened />
    </>
  );
}
