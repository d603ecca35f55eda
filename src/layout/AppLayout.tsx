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

export function AppLayout({ children }: { children: ReactNode }) {
  return (
    <SidePanelProvider>
      <SessionEndRedirect />
      <HeaderSlotProvider>
        <Layout appBar={AppHeader} sidebar={NoSidebar} menu={NoMenu} sx={{ '& .RaLayout-content': { p: 2 } }}>
          {children}
        </Layout>
      </HeaderSlotProvider>
    </SidePanelProvider>
  );
}
