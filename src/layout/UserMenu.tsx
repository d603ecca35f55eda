/** The header's user menu: the signed-in user's name, and Team / Permissions / My account / Log out. */
import AccountCircle from '@mui/icons-material/AccountCircle';
import { Button, Menu, MenuItem } from '@mui/material';
import { useState, type MouseEvent } from 'react';
import { useLogout, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { fullName } from '../providers/authProvider';
import { usePermission, useSessionUser } from '../providers/usePermissions';

export function UserMenu() {
  const translate = useTranslate();
  const logout = useLogout();
  const user = useSessionUser();
  const mayOpenTeam = usePermission({ resource: 'team', action: 'list' });
  const mayOpenPermissions = usePermission({ resource: 'permissions', action: 'list' });
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);

  if (!user) return null;

  const links = [
    { to: '/team', label: 'app.user_menu.team', shown: mayOpenTeam },
    { to: '/permissions', label: 'app.user_menu.permissions', shown: mayOpenPermissions },
    { to: '/account', label: 'app.user_menu.account', shown: true },
  ].filter((link) => link.shown);

  return (
    <>
      <Button
        color="inherit"
        startIcon={<AccountCircle />}
        aria-haspopup="menu"
        aria-controls={anchor ? 'user-menu' : undefined}
        onClick={(event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget)}
        sx={{ textTransform: 'none' }}
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
