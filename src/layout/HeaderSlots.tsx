/**
 * The header's content slot: a screen renders `<HeaderContent>…</HeaderContent>` anywhere in its
 * tree and the children appear in the header bar (docs/screens.md 'a content slot').
 */
import { createContext, useContext, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

type SlotState = [HTMLElement | null, (element: HTMLElement | null) => void];

const HeaderSlotContext = createContext<SlotState>([null, () => undefined]);

export function HeaderSlotProvider({ children }: { children: ReactNode }) {
  const state = useState<HTMLElement | null>(null);
  return <HeaderSlotContext.Provider value={state}>{children}</HeaderSlotContext.Provider>;
}

/** The element the header renders as its content slot. */
export function HeaderContentSlot() {
  const [, setSlot] = useContext(HeaderSlotContext);
  return <div ref={setSlot} data-testid="header-content" style={{ display: 'flex', alignItems: 'center', gap: 8 }} />;
}

export function HeaderContent({ children }: { children: ReactNode }) {
  const [slot] = useContext(HeaderSlotContext);
  return slot ? createPortal(children, slot) : null;
}
