/** The side panel of docs/screens.md: a temporary drawer, width 400, with the product's main links. */
import { Box, Divider, Drawer, List, ListItemButton, ListItemText, Tooltip, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { SIDE_PANEL_WIDTH } from '../domain/constants';
import { useCanOpenTeam, usePermission } from '../providers/usePermissions';
import { useSidePanel } from './SidePanelState';

function NavLink({ to, label }: { to: string; label: string }) {
  const { setOpen } = useSidePanel();
  const { pathname } = useLocation();
  const current = pathname === to;
  return (
    <ListItemButton
      component={RouterLink}
      to={to}
      onClick={() => setOpen(false)}
      selected={current}
      aria-current={current ? 'page' : undefined}
    >
      <ListItemText primary={label} />
    </ListItemButton>
  );
}

/** A link the user may not follow (Campaigns, Team): a greyed label that explains why. */
function DisabledNavItem({ label, reason }: { label: string; reason: string }) {
  return (
    <Tooltip title={reason} placement="right">
      <Box
        component="li"
        aria-disabled="true"
        sx={{ px: 2, py: 1, color: 'text.disabled', cursor: 'not-allowed', listStyle: 'none' }}
      >
        <Typography>{label}</Typography>
      </Box>
    </Tooltip>
  );
}

export function SidePanel() {
  const translate = useTranslate();
  const { open, setOpen } = useSidePanel();
  const canSeeCampaigns = usePermission('add_edit_campaigns');
  const canSeeTeam = useCanOpenTeam();

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
          <NavLink to="/" label={translate('app.nav.general')} />
          {canSeeCampaigns ? (
            <NavLink to="/campaigns" label={translate('app.nav.campaigns')} />
          ) : (
            <DisabledNavItem label={translate('app.nav.campaigns')} reason={translate('app.nav.campaigns_denied')} />
          )}
          {canSeeTeam ? (
            <NavLink to="/team" label={translate('app.nav.team')} />
          ) : (
            <DisabledNavItem label={translate('app.nav.team')} reason={translate('app.nav.team_denied')} />
          )}
          <NavLink to="/account" label={translate('app.nav.account')} />
        </List>
      </Box>
    </Drawer>
  );
}
