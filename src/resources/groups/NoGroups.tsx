/**
 * The Permissions page before any group exists: what a group is, and New group for those who may
 * create one (inviting a colleague needs a group, so this is a first step of a new team).
 */
import Add from '@mui/icons-material/Add';
import { Box, Typography } from '@mui/material';
import { CreateButton, useTranslate } from 'react-admin';
import { usePermission } from '../../providers/usePermissions';

export function NoGroups() {
  const translate = useTranslate();
  const mayCreate = usePermission('update_permissions');
  return (
    <Box sx={{ p: 3, maxWidth: 640 }}>
      <Typography variant="h6" component="h2" gutterBottom>
        {translate('people.groups.empty_title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate(mayCreate ? 'people.groups.empty' : 'people.groups.empty_reader')}
      </Typography>
      {mayCreate ? (
        <CreateButton resource="permissions" label="people.groups.create" icon={<Add />} variant="contained" />
      ) : null}
    </Box>
  );
}
