/** Whether the side panel is open: one value the header and any screen's menu button share. */
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';

interface SidePanelState {
  open: boolean;
  setOpen: (open: boolean) => void;
}

const SidePanelContext = createContext<SidePanelState>({ open: false, setOpen: () => undefined });

export function SidePanelProvider({
  children,
  initiallyOpen = false,
}: {
  children: ReactNode;
  initiallyOpen?: boolean;
}) {
  const [open, setOpen] = useState(initiallyOpen);
  const value = useMemo(() => ({ open, setOpen }), [open]);
  return <SidePanelContext.Provider value={value}>{children}</SidePanelContext.Provider>;
}

export const useSidePanel = () => useContext(SidePanelContext);
