/**
 * Permissions (/permissions, docs/screens.md): the groups, each renamed in place and its accesses
 * toggled (shortcuts), opened in its Edit view, deleted after 'Are you sure you want to delete this
 * group?'; 'New group' opens the Create view; with no group yet, what a group is (NoPermissionGroups.tsx).
 * Built from react-admin's list parts.
 */
import { Card, Stack, useMediaQuery, type Theme } from '@mui/material';
import Add from '@mui/icons-material/Add';
import {
  CreateButton,
  Datagrid,
  DeleteWithConfirmButton,
  EditButton,
  ListBase,
  Pagination,
  useRecordContext,
} from 'react-admin';
import { ListErrors, listErrorsQueryOptions, UnlessListFailed } from '../../layout/list';
import { PageTitle } from '../../layout/pageTitle';
import { useNarrowScreen } from '../../layout/RowActions';
import { PageToolbar, ToolbarSpacer } from '../../layout/PageToolbar';
import { useNotifyFailure, useNotifySuccess } from '../../layout/forms';
import { PermissionGroupAccessesField } from './PermissionGroupAccessesField';
import { PermissionGroupNameField } from './PermissionGroupNameField';
import { NoPermissionGroups } from './NoPermissionGroups';
import type { PermissionGroup } from './types';
import { usePermission } from '../../providers/usePermissions';

/** Edit and Delete, each for those who may. */
function GroupActions(_props: { label?: string }) {
  const record = useRecordContext<PermissionGroup>();
  const canEdit = usePermission({ resource: 'permissions', action: 'edit' });
  return (
    <>
      {canEdit ? <EditButton aria-label={`Edit ${record?.name ?? ''}`} /> : null}
      <DeleteGroupButton />
    </>
  );
}

function DeleteGroupButton() {
  const record = useRecordContext<PermissionGroup>();
  const notifySuccess = useNotifySuccess();
  const notifyFailure = useNotifyFailure();
  const canDelete = usePermission({ resource: 'permissions', action: 'delete' });
  if (!record || !canDelete) return null;
  return (
    <DeleteWithConfirmButton
      mutationMode="pessimistic"
      redirect={false}
      confirmTitle="people.permissions.delete_title"
      confirmContent="people.permissions.delete_confirm"
      translateOptions={{ name: record.name }}
      mutationOptions={{ onSuccess: () => notifySuccess('people.permissions.deleted'), onError: notifyFailure }}
    />
  );
}

/**
 * On a phone the actions go under the name: three columns would push them out of the screen. The
 * name is not renamed in place there: its pencil would stand beside Edit's, which renames too.
 */
function GroupNameWithActions(_props: { label?: string; source?: string }) {
  return (
    <Stack spacing={0.5} alignItems="flex-start">
      <PermissionGroupNameField inPlace={false} />
      <Stack direction="row">
        <GroupActions />
      </Stack>
    </Stack>
  );
}

export function PermissionsList() {
  const phone = useNarrowScreen();
  // Below md react-admin draws CreateButton as a floating button: the toolbar would stand empty.
  const floatingCreate = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'));
  const newGroup = <CreateButton label="people.permissions.create" icon={<Add />} variant="contained" />;
  return (
    <ListBase
      resource="permissions"
      perPage={25}
      sort={{ field: 'id', order: 'ASC' }}
      queryOptions={listErrorsQueryOptions}
      disableSyncWithLocation
    >
      <PageTitle title="app.page.permissions" />
      {floatingCreate ? (
        newGroup
      ) : (
        <PageToolbar>
          <ToolbarSpacer />
          {newGroup}
        </PageToolbar>
      )}
      <ListErrors />
      <UnlessListFailed>
        <Card variant="outlined">
          <Datagrid bulkActionButtons={false} rowClick={false} empty={<NoPermissionGroups />}>
            {phone ? (
              <GroupNameWithActions source="name" label="resources.permissions.fields.name" />
            ) : (
              <PermissionGroupNameField source="name" label="resources.permissions.fields.name" />
            )}
            <PermissionGroupAccessesField label="resources.permissions.fields.accesses" />
            {phone ? null : <GroupActions label="resources.permissions.fields.actions" />}
          </Datagrid>
        </Card>
        <Pagination rowsPerPageOptions={[10, 25, 50, 100]} />
      </UnlessListFailed>
    </ListBase>
  );
}

export default PermissionsList;
