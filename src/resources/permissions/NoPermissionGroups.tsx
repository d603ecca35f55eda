/**
 * The Permissions page before any group exists: what a group is, and — for those who may create
 * one — that New group (above) is the first step, since inviting a colleague needs a group.
 */
import { Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { usePermission } from '../../providers/usePermissions';

export function NoPermissionGroups() {
  const translate = useTranslate();
  const mayCreate = usePermission({ resource: 'permissions', action: 'create' });
  return (
    <Box sx={{ p: 3, maxWidth: 640 }}>
      <Typography variant="h6" component="h2" gutterBottom>
        {translate('people.permissions.empty_title')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {translate(mayCreate ? 'people.permissions.empty' : 'people.permissions.empty_reader')}
      </Typography>
    </Box>
  );
}
