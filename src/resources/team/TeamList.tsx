/**
 * Team (/team, docs/screens.md): Invite, the server-paginated team (10 a page; 10/25/50/100) with
 * Full name, Email, Permission Group and Action (shortcuts in the row), Edit (the member's profile
 * form, for add_edit_users), and the pending invitations (Resend, Cancel).
 * Failed calls show in the shared error list at the top. On a phone each member is one cell.
 */
import { Box, Card, Stack, Typography } from '@mui/material';
import { Datagrid, EditButton, FunctionField, ListBase, Pagination, TextField, useRecordContext } from 'react-admin';
import { PEOPLE_ACCESS } from '../../../shared/permissions';
import { TEAM_PAGE_SIZES } from '../../../shared/constants';
import { useErrorList } from '../../layout/ErrorList';
import { ListErrors, listErrorsQueryOptions, UnlessListFailed } from '../../layout/list';
import { PageTitle } from '../../layout/pageTitle';
import { useNarrowScreen } from '../../layout/RowActions';
import { PageToolbar, ToolbarSpacer } from '../../layout/PageToolbar';
import { usePermission } from '../../providers/usePermissions';
import { InviteButton } from './InviteButton';
import { PendingInvitations } from './PendingInvitations';
import { memberName, type TeamMember } from './types';
import { usePendingInvitations } from './usePendingInvitations';
import { TeamMemberActivityButton } from './TeamMemberActivityButton';
import { TeamMemberGroupField } from './TeamMemberGroupField';

/** On a phone a member is one cell: name and e-mail, the group, then the actions (five columns do not fit). */
function MemberOnPhone({ canEdit }: { canEdit: boolean; source?: string; sortBy?: string; label?: string }) {
  const record = useRecordContext<TeamMember>();
  if (!record) return null;
  return (
    <Stack spacing={1} alignItems="flex-start">
      <Box>
        <Typography variant="body2" sx={{ fontWeight: 500 }}>
          {memberName(record)}
        </Typography>
        <Typography variant="caption" component="div" sx={{ overflowWrap: 'anywhere' }}>
          {record.email}
        </Typography>
      </Box>
      <TeamMemberGroupField />
      <Stack direction="row" spacing={1} alignItems="center">
        <TeamMemberActivityButton />
        {canEdit ? <EditButton label="ra.action.edit" /> : null}
      </Stack>
    </Stack>
  );
}

export function TeamList() {
  const phone = useNarrowScreen();
  const { errors, showError } = useErrorList();
  const pending = usePendingInvitations(usePermission(PEOPLE_ACCESS.manageMembers), showError);
  const canEdit = usePermission({ resource: 'team', action: 'edit' });
  return (
    <ListBase
      resource="team"
      perPage={TEAM_PAGE_SIZES[0]}
      sort={{ field: 'id', order: 'ASC' }}
      queryOptions={listErrorsQueryOptions}
      disableSyncWithLocation
    >
      <PageTitle title="app.page.team" />
      <PageToolbar>
        <ToolbarSpacer />
        <InviteButton />
      </PageToolbar>
      <ListErrors more={errors} />
      <UnlessListFailed>
        <Card variant="outlined">
          {phone ? (
            <Datagrid bulkActionButtons={false} rowClick={false}>
              <MemberOnPhone source="full_name" sortBy="last_name" label="people.team.member" canEdit={canEdit} />
            </Datagrid>
          ) : (
            <Datagrid bulkActionButtons={false} rowClick={false}>
              <FunctionField<TeamMember>
                source="full_name"
                sortBy="last_name"
                render={(record) => memberName(record)}
              />
              <TextField source="email" />
              <TeamMemberGroupField label="resources.team.fields.group" />
              <TeamMemberActivityButton label="resources.team.fields.action" />
              {canEdit ? <EditButton label="ra.action.edit" /> : null}
            </Datagrid>
          )}
        </Card>
        <Pagination rowsPerPageOptions={[...TEAM_PAGE_SIZES]} />
      </UnlessListFailed>
      <PendingInvitations pending={pending} />
    </ListBase>
  );
}

export default TeamList;
