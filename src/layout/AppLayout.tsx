/**
 * The shared layout for signed-in screens: react-admin's Layout (error boundary, suspense for lazy
 * pages) with our header and side panel instead of its sidebar and menu; an ended session leaves
 * for /login from any screen inside it.
 */
import type { ReactNode } from 'react';
import { Layout } from 'react-admin';
import { AppHeader } from './AppHeader';
import { HeaderSlotProvider } from './HeaderSlots';
import { SessionEndRedirect } from './SessionEndRedirect';
import { SidePanelProvider } from './SidePanelState';

const NoSidebar = () => null;
const NoMenu = () => null;

/**
 * react-admin's layout is at least as wide as its content (min-width: fit-content): a wide table
 * would widen the whole page on a phone. Here the page keeps the window's width and wide content
 * scrolls in its own box.
 */
const layoutSx = {
  minWidth: 0,
  '& .RaLayout-appFrame, & .RaLayout-contentWithSidebar': { minWidth: 0 },
  '& .RaLayout-content': { p: { xs: 1, sm: 2 }, minWidth: 0 },
} as const;

export function AppLayout({ children }: { children: ReactNode }) {
  return (
    <SidePanelProvider>
      <SessionEndRedirect />
      <HeaderSlotProvider>
        <Layout appBar={AppHeader} sidebar={NoSidebar} menu={NoMenu} sx={layoutSx}>
          {children}
        </Layout>
      </HeaderSlotProvider>
    </SidePanelProvider>
  );
}
