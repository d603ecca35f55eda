/**
 * The header's user menu: the signed-in user's name, the registry's user menu entries open to the
 * user (Team, Permissions), My account and Log out, each with its icon (a resource's own).
 */
import AccountCircle from '@mui/icons-material/AccountCircle';
import AccountCircleOutlinedIcon from '@mui/icons-material/AccountCircleOutlined';
import LogoutIcon from '@mui/icons-material/Logout';
import { Button, ListItemText, Menu, MenuItem } from '@mui/material';
import { type ComponentType, useState, type MouseEvent } from 'react';
import { useLogout, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { fullName } from '../providers/authProvider';
import { usePermissionCheck, useSessionUser } from '../providers/usePermissions';
import { NavIcon } from './NavIcon';
import { useNavigableResources, userMenuResources } from './resourceNavigation';

export function UserMenu() {
  const translate = useTranslate();
  const logout = useLogout();
  const user = useSessionUser();
  const may = usePermissionCheck();
  const resources = useNavigableResources();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);

  if (!user) return null;

  const links: { to: string; label: string; icon?: ComponentType }[] = [
    ...userMenuResources(resources)
      .filter((resource) => may({ resource: resource.name, action: 'list' }))
      .map((resource) => ({ to: `/${resource.name}`, label: resource.userMenu!.label, icon: resource.icon })),
    { to: '/account', label: 'app.user_menu.account', icon: AccountCircleOutlinedIcon },
  ];

  return (
    <>
      <Button
        color="inherit"
        startIcon={<AccountCircle />}
        aria-haspopup="menu"
        aria-controls={anchor ? 'user-menu' : undefined}
        onClick={(event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget)}
        sx={{ textTransform: 'none', minHeight: { xs: 44, sm: 'auto' } }} // a tap target on a phone
      >
        {fullName(user) || user.email}
      </Button>
      <Menu id="user-menu" anchorEl={anchor} open={Boolean(anchor)} onClose={close}>
        {links.map((link) => (
          <MenuItem key={link.to} component={RouterLink} to={link.to} onClick={close}>
            <NavIcon icon={link.icon} />
            <ListItemText>{translate(link.label)}</ListItemText>
          </MenuItem>
        ))}
        <MenuItem
          onClick={() => {
            close();
            void logout();
          }}
        >
          <NavIcon icon={LogoutIcon} />
          <ListItemText>{translate('app.user_menu.logout')}</ListItemText>
        </MenuItem>
      </Menu>
    </>
  );
}
