/**
 * Team (/team, SPEC §2): Invite, and the server-paginated team (10 a page; 10/25/50/100) with
 * Full name, Email, Permission Group and Action.
 */
import { Card } from '@mui/material';
import { Datagrid, FunctionField, ListBase, Pagination, TextField } from 'react-admin';
import { TEAM_PAGE_SIZES } from '../../domain/constants';
import { PageTitle } from '../../layout/pageTitle';
import { PageToolbar, ToolbarSpacer } from '../../layout/PageToolbar';
import { InviteButton } from './InviteButton';
import { memberName, type TeamMember } from './types';
import { UserActivityButton } from './UserActivityButton';
import { UserGroupField } from './UserGroupField';

export function UserList() {
  return (
    <ListBase resource="team" perPage={TEAM_PAGE_SIZES[0]} sort={{ field: 'id', order: 'ASC' }} disableSyncWithLocation>
      <PageTitle title="app.page.team" />
      <PageToolbar>
        <ToolbarSpacer />
        <InviteButton />
      </PageToolbar>
      <Card variant="outlined">
        <Datagrid bulkActionButtons={false} rowClick={false}>
          <FunctionField<TeamMember> source="full_name" sortBy="last_name" render={(record) => memberName(record)} />
          <TextField source="email" />
          <UserGroupField label="resources.team.fields.group" />
          <UserActivityButton label="resources.team.fields.action" />
        </Datagrid>
      </Card>
      <Pagination rowsPerPageOptions={[...TEAM_PAGE_SIZES]} />
    </ListBase>
  );
}

export default UserList;
