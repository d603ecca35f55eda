/** 'New group' (update_permissions): creates a group named 'New group' with no accesses, ready to rename. */
import Add from '@mui/icons-material/Add';
import { Button } from '@mui/material';
import { useCanAccess, useCreate, useTranslate } from 'react-admin';
import { NEW_GROUP_NAME } from '../../domain/constants';
import { useNotifyFailure } from '../../custom-pages/account/forms';

export function CreateGroupButton() {
  const translate = useTranslate();
  const notifyFailure = useNotifyFailure();
  const { canAccess } = useCanAccess({ resource: 'permissions', action: 'create' });
  const [create, { isPending }] = useCreate();
  if (!canAccess) return null;
  return (
    <Button
      variant="contained"
      startIcon={<Add />}
      loading={isPending}
      onClick={() =>
        create(
          'permissions',
          { data: { name: NEW_GROUP_NAME, group_access: { accesses: [] } } },
          { onError: notifyFailure },
        )
      }
    >
      {translate('people.groups.create')}
    </Button>
  );
}
