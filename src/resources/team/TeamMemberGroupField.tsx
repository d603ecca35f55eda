/**
 * The Permission Group column: the user's first group. With add_edit_users it is a select that
 * sets the group (GET /api/user/{id}/set_group/{group_id}/); otherwise just the group's name.
 */
import { MenuItem, TextField, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useDataProvider, useGetList, useRecordContext, useRefresh, useTranslate } from 'react-admin';
import type { AppDataProvider } from '../../providers/dataProvider';
import { PEOPLE_ACCESS } from '../../../shared/permissions';
import { usePermission } from '../../providers/usePermissions';
import { useNotifyFailure, useNotifySuccess } from '../../layout/forms';
import { memberName, type TeamMember } from './types';

interface GroupOption {
  id: number;
  name: string;
}

export function TeamMemberGroupField(_props: { label?: string }) {
  const record = useRecordContext<TeamMember>();
  const mayChange = usePermission(PEOPLE_ACCESS.manageMembers);
  if (!record) return null;
  const current = record.groups[0];
  if (!mayChange) return <Typography variant="body2">{current?.name ?? '—'}</Typography>;
  return <GroupSelect member={record} currentId={current?.id} />;
}

function GroupSelect({ member, currentId }: { member: TeamMember; currentId: number | undefined }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const refresh = useRefresh();
  const notifySuccess = useNotifySuccess();
  const notifyFailure = useNotifyFailure();
  const { data: loaded = [] } = useGetList<GroupOption>('permissions', {
    pagination: { page: 1, perPage: 1000 },
    sort: { field: 'name', order: 'ASC' },
  });
  const { mutate, isPending } = useMutation({
    mutationFn: (groupId: number) => dataProvider.setUserGroup(member.id, groupId),
    onSuccess: () => {
      notifySuccess('people.team.group_changed');
      refresh();
    },
    onError: notifyFailure,
  });
  // Until the groups arrive, the current one is the only choice (a select needs its value among them).
  const groups = loaded.length ? loaded : member.groups.slice(0, 1);

  return (
    <TextField
      select
      size="small"
      variant="standard"
      value={currentId ?? ''}
      disabled={isPending}
      onChange={(event) => mutate(Number(event.target.value))}
      slotProps={{
        htmlInput: { 'aria-label': `${translate('resources.team.fields.group')}: ${memberName(member)}` },
        select: { displayEmpty: true },
      }}
      sx={{ minWidth: 180, '& .MuiInputBase-root': { typography: 'body2' } }}
    >
      {currentId === undefined ? (
        <MenuItem value="" disabled>
          {translate('people.team.no_group')}
        </MenuItem>
      ) : null}
      {groups.map((group) => (
        <MenuItem key={group.id} value={group.id}>
          {group.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
