/**
 * The side panel of docs/screens.md: a temporary drawer, width 400, with General, the resources that
 * ask for an entry (the registry's `menu`, in their order, checked with canAccess), Platform health
 * and Account, each with its icon (a resource's own); below them, the screens of
 * SidePanelScreens.tsx that the user may open.
 */
import AccountCircleOutlinedIcon from '@mui/icons-material/AccountCircleOutlined';
import FolderOutlinedIcon from '@mui/icons-material/FolderOutlined';
import MonitorHeartOutlinedIcon from '@mui/icons-material/MonitorHeartOutlined';
import { Box, Divider, Drawer, List, ListItem, ListItemButton, ListItemText, Tooltip, Typography } from '@mui/material';
import type { ComponentType } from 'react';
import { useTranslate } from 'react-admin';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { SIDE_PANEL_WIDTH } from '../../shared/constants';
import { usePermission } from '../providers/usePermissions';
import { NavIcon } from './NavIcon';
import { menuResources, type NavigableResource, useNavigableResources } from './resourceNavigation';
import { SidePanelScreens } from './SidePanelScreens';
import { useSidePanel } from './SidePanelState';

function NavLink({ to, label, icon }: { to: string; label: string; icon?: ComponentType }) {
  const { setOpen } = useSidePanel();
  const { pathname } = useLocation();
  const current = pathname === to;
  // An item of the list (a list holds items only: WCAG 1.3.1), the link inside it.
  return (
    <ListItem disablePadding>
      <ListItemButton
        component={RouterLink}
        to={to}
        onClick={() => setOpen(false)}
        selected={current}
        aria-current={current ? 'page' : undefined}
      >
        <NavIcon icon={icon} />
        <ListItemText primary={label} />
      </ListItemButton>
    </ListItem>
  );
}

/** A link the user may not follow (Campaigns, Team): a greyed label that explains why. */
function DisabledNavItem({ label, reason, icon }: { label: string; reason: string; icon?: ComponentType }) {
  return (
    <Tooltip title={reason} placement="right">
      <ListItem aria-disabled="true" sx={{ color: 'text.disabled', cursor: 'not-allowed' }}>
        <NavIcon icon={icon} disabled />
        <ListItemText primary={label} />
      </ListItem>
    </Tooltip>
  );
}

/** A registry resource's entry: a link when its list is open to the user, else greyed or absent. */
function ResourceNavItem({ resource }: { resource: NavigableResource }) {
  const translate = useTranslate();
  const mayOpen = usePermission({ resource: resource.name, action: 'list' });
  const label = translate(resource.menu?.label ?? `resources.${resource.name}.page`);
  if (mayOpen) return <NavLink to={`/${resource.name}`} label={label} icon={resource.icon} />;
  return resource.menu?.deniedReason ? (
    <DisabledNavItem label={label} reason={translate(resource.menu.deniedReason)} icon={resource.icon} />
  ) : null;
}

export function SidePanel() {
  const translate = useTranslate();
  const { open, setOpen } = useSidePanel();
  const resources = useNavigableResources();

  return (
    <Drawer
      anchor="left"
      variant="temporary"
      open={open}
      onClose={() => setOpen(false)}
      slotProps={{ paper: { sx: { width: SIDE_PANEL_WIDTH, maxWidth: '100vw' } } }}
    >
      <Box component="nav" aria-label={translate('app.name')}>
        <Typography variant="h6" component="h2" sx={{ px: 2, py: 1.5 }}>
          {translate('app.name')}
        </Typography>
        <Divider />
        <List>
          <NavLink to="/" label={translate('app.nav.general')} icon={FolderOutlinedIcon} />
          {menuResources(resources).map((resource) => (
            <ResourceNavItem key={resource.name} resource={resource} />
          ))}
          <NavLink to="/health" label={translate('judging.health.title')} icon={MonitorHeartOutlinedIcon} />
          <NavLink to="/account" label={translate('app.nav.account')} icon={AccountCircleOutlinedIcon} />
        </List>
        <SidePanelScreens />
      </Box>
    </Drawer>
  );
}
