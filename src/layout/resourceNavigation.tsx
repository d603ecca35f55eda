/**
 * The registry's resources as the side panel and the user menu see them: each one's name (its
 * route, and the list its entry needs permission for), its icon and its entries. App.tsx gives the
 * registry (src/resources) to the layout with <ResourceNavigationProvider>: the layout sits under
 * the screens and does not import them.
 */
import { type ComponentType, createContext, type ReactNode, useContext } from 'react';

/**
 * An entry in the side panel, in this order; shown to those its list is open to, and to others
 * greyed with `deniedReason` (a translation key) when given, else not at all.
 */
export interface SidePanelEntry {
  order: number;
  /** A translation key; `resources.<name>.page` when not given. */
  label?: string;
  deniedReason?: string;
}

/** An entry in the header's user menu, in this order (a translation key); shown to those its list is open to. */
export interface UserMenuEntry {
  order: number;
  label: string;
}

export interface NavigableResource {
  /** The resource's name: its route is /<name>. */
  name: string;
  icon?: ComponentType;
  menu?: SidePanelEntry;
  userMenu?: UserMenuEntry;
}

const ResourceNavigationContext = createContext<readonly NavigableResource[]>([]);

export function ResourceNavigationProvider({
  resources,
  children,
}: {
  resources: readonly NavigableResource[];
  children: ReactNode;
}) {
  return <ResourceNavigationContext.Provider value={resources}>{children}</ResourceNavigationContext.Provider>;
}

/** Every resource the app registered (none outside a ResourceNavigationProvider). */
export const useNavigableResources = () => useContext(ResourceNavigationContext);

/** The side panel's resource entries, in their order. */
export const menuResources = (list: readonly NavigableResource[]) =>
  list.filter((r) => r.menu).sort((a, b) => a.menu!.order - b.menu!.order);

/** The user menu's resource entries, in their order. */
export const userMenuResources = (list: readonly NavigableResource[]) =>
  list.filter((r) => r.userMenu).sort((a, b) => a.userMenu!.order - b.userMenu!.order);
