/**
 * The side panel's second list, below its own entries: the screens otherwise reached from inside
 * others (Activity, Log, Impact) and the screens of their own (Agency overview, Ads), each shown only to
 * those its route opens to, each with its icon. One line per screen in SIDE_PANEL_SCREENS: a
 * registry resource by its name (its route, icon — a defined resource's `menu.icon` — and list
 * permission come with it), or a custom screen with its address, label, icon and permission.
 */
import InsightsOutlinedIcon from '@mui/icons-material/InsightsOutlined';
import SpaceDashboardOutlinedIcon from '@mui/icons-material/SpaceDashboardOutlined';
import { Divider, List, ListItem, ListItemButton, ListItemText } from '@mui/material';
import type { ComponentType } from 'react';
import { useTranslate } from 'react-admin';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import type { AccessRule } from '../providers/canAccess';
import { type AccessCheck, usePermissionCheck } from '../providers/usePermissions';
import { NavIcon } from './NavIcon';
import { type NavigableResource, useNavigableResources } from './resourceNavigation';
import { useSidePanel } from './SidePanelState';

export type SidePanelScreen =
  /** A registry resource's list (src/resources): `label` defaults to `resources.<name>.page`. */
  | { resource: string; label?: string; icon?: ComponentType }
  /** A custom screen (src/custom-pages/routes.tsx): the permission its data needs on the server. */
  | { to: string; label: string; icon: ComponentType; access: AccessRule };

/** In this order, below the panel's own entries. */
export const SIDE_PANEL_SCREENS: SidePanelScreen[] = [
  { resource: 'activity', label: 'app.page.activity' },
  { resource: 'log', label: 'app.page.log' },
  { to: '/impact', label: 'app.page.impact', icon: InsightsOutlinedIcon, access: 'view_logs' },
  { to: '/overview', label: 'overview.title', icon: SpaceDashboardOutlinedIcon, access: 'read_rules' },
  { resource: 'ads', label: 'ads.title' },
];

interface ResolvedScreen {
  to: string;
  label: string;
  icon?: ComponentType;
  access: AccessCheck;
}

/** An entry with its route, label, icon and check; a resource the registry does not hold is left out. */
function resolve(screen: SidePanelScreen, resources: readonly NavigableResource[]): ResolvedScreen | null {
  if ('to' in screen) return screen;
  const definition = resources.find((r) => r.name === screen.resource);
  if (!definition) return null;
  return {
    to: `/${definition.name}`,
    label: screen.label ?? `resources.${definition.name}.page`,
    icon: screen.icon ?? definition.icon,
    access: { resource: definition.name, action: 'list' },
  };
}

function ScreenLink({ screen }: { screen: ResolvedScreen }) {
  const translate = useTranslate();
  const { setOpen } = useSidePanel();
  const { pathname } = useLocation();
  const current = pathname === screen.to;
  return (
    <ListItem disablePadding>
      <ListItemButton
        component={RouterLink}
        to={screen.to}
        onClick={() => setOpen(false)}
        selected={current}
        aria-current={current ? 'page' : undefined}
      >
        <NavIcon icon={screen.icon} />
        <ListItemText primary={translate(screen.label)} />
      </ListItemButton>
    </ListItem>
  );
}

export function SidePanelScreens() {
  const mayOpen = usePermissionCheck();
  const resources = useNavigableResources();
  const shown = SIDE_PANEL_SCREENS.map((screen) => resolve(screen, resources)).filter(
    (screen): screen is ResolvedScreen => screen !== null && mayOpen(screen.access),
  );
  if (!shown.length) return null;
  return (
    <>
      <Divider />
      <List>
        {shown.map((screen) => (
          <ScreenLink key={screen.to} screen={screen} />
        ))}
      </List>
    </>
  );
}
