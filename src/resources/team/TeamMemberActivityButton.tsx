/**
 * The Action column: Activate or Deactivate (is_staff). Nobody deactivates themselves; without
 * is_staff the button is disabled with the permission tooltip.
 */
import { Button, Tooltip } from '@mui/material';
import { useRecordContext, useTranslate, useUpdate } from 'react-admin';
import { PEOPLE_ACCESS } from '../../../shared/permissions';
import { usePermission, useSessionUser } from '../../providers/usePermissions';
import { useNotifyFailure, useNotifySuccess } from '../../layout/forms';
import type { TeamMember } from './types';

export function TeamMemberActivityButton(_props: { label?: string }) {
  const record = useRecordContext<TeamMember>();
  const translate = useTranslate();
  const me = useSessionUser();
  const mayChange = usePermission(PEOPLE_ACCESS.activateMembers);
  const notifySuccess = useNotifySuccess();
  const notifyFailure = useNotifyFailure();
  const [update, { isPending }] = useUpdate<TeamMember>();
  if (!record) return null;

  const label = translate(record.is_active ? 'people.team.deactivate' : 'people.team.activate');
  const self = record.id === me?.id;
  const denied = !mayChange ? translate('app.trash.denied') : self ? translate('people.team.yourself') : null;
  const button = (
    <Button
      size="small"
      variant="outlined"
      color={record.is_active ? 'error' : 'success'}
      disabled={Boolean(denied) || isPending}
      onClick={() =>
        update(
          'team',
          { id: record.id, data: { is_active: !record.is_active }, previousData: record },
          {
            mutationMode: 'pessimistic',
            onSuccess: () => notifySuccess('people.team.activity_changed'),
            onError: notifyFailure,
          },
        )
      }
    >
      {label}
    </Button>
  );
  return denied ? (
    <Tooltip title={denied}>
      <span>{button}</span>
    </Tooltip>
  ) : (
    button
  );
}
