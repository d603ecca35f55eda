/**
 * The way to the agency overview from General's toolbar, for those who may open it (read_rules): a
 * button, and on a phone, where the toolbar's row is full, its icon with the same name.
 */
import SpaceDashboardOutlinedIcon from '@mui/icons-material/SpaceDashboardOutlined';
import { Button, IconButton, Tooltip, useMediaQuery, useTheme } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { usePermission } from '../../providers/usePermissions';

export const OVERVIEW_PATH = '/overview';

export function OverviewLink() {
  const translate = useTranslate();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const mayOpen = usePermission('read_rules');
  if (!mayOpen) return null;
  const label = translate('overview.open');
  return phone ? (
    <Tooltip title={label}>
      <IconButton component={RouterLink} to={OVERVIEW_PATH} aria-label={label} color="primary">
        <SpaceDashboardOutlinedIcon />
      </IconButton>
    </Tooltip>
  ) : (
    <Button component={RouterLink} to={OVERVIEW_PATH} variant="outlined" startIcon={<SpaceDashboardOutlinedIcon />}>
      {label}
    </Button>
  );
}
