/**
 * The header's user menu: the signed-in user's name, the registry's user menu entries open to the
 * user (Team, Permissions), My account and Log out.
 */
import AccountCircle from '@mui/icons-material/AccountCircle';
import { Button, Menu, MenuItem } from '@mui/material';
import { useState, type MouseEvent } from 'react';
import { useLogout, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { fullName } from '../providers/authProvider';
import { usePermissionCheck, useSessionUser } from '../providers/usePermissions';
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

  const links = [
    ...userMenuResources(resources)
      .filter((resource) => may({ resource: resource.name, action: 'list' }))
      .map((resource) => ({ to: `/${resource.name}`, label: resource.userMenu!.label })),
    { to: '/account', label: 'app.user_menu.account' },
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
            {translate(link.label)}
          </MenuItem>
        ))}
        <MenuItem
          onClick={() => {
            close();
            void logout();
          }}
        >
          {translate('app.user_menu.logout')}
        </MenuItem>
      </Menu>
    </>
  );
}
