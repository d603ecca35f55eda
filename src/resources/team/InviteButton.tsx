/**
 * Invite (docs/screens.md Team): a dialog with the permission group and the e-mail; the server mails the
 * colleague a /join link. Shown to users with add_edit_users. With no group yet it says so and leads
 * to creating one (InviteNeedsGroup.tsx).
 */
import PersonAddAlt from '@mui/icons-material/PersonAddAlt';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { useState } from 'react';
import { Form, SelectInput, TextInput, useDataProvider, useGetList, useTranslate } from 'react-admin';
import { formValidator, inviteSchema } from '../../domain/validation';
import { ErrorList } from '../../layout/ErrorList';
import type { AppDataProvider } from '../../providers/dataProvider';
import type { InviteRequest } from '../../providers/peopleMethods';
import { PEOPLE_ACCESS } from '../../domain/permissions';
import { usePermission } from '../../providers/usePermissions';
import { SubmitButton, useNotifySuccess, useServerFormSubmit } from '../../custom-pages/account/forms';
import { InviteNeedsGroup } from './InviteNeedsGroup';

const FIELDS = ['group_id', 'email'] as const;
const validate = formValidator(inviteSchema);

/** `onInvited` runs after the server accepted an invitation (Team reloads its pending list). */
export function InviteButton({ onInvited }: { onInvited?: () => void }) {
  const translate = useTranslate();
  const mayInvite = usePermission(PEOPLE_ACCESS.manageMembers);
  const [open, setOpen] = useState(false);
  if (!mayInvite) return null;
  return (
    <>
      <Button variant="contained" startIcon={<PersonAddAlt />} onClick={() => setOpen(true)}>
        {translate('people.team.invite')}
      </Button>
      {open ? <InviteDialog onClose={() => setOpen(false)} onInvited={onInvited} /> : null}
    </>
  );
}

function InviteDialog({ onClose, onInvited }: { onClose: () => void; onInvited?: () => void }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const notifySuccess = useNotifySuccess();
  const { data: groups = [], isPending } = useGetList('permissions', {
    pagination: { page: 1, perPage: 1000 },
    sort: { field: 'name', order: 'ASC' },
  });

  const { onSubmit: send, errors } = useServerFormSubmit<InviteRequest>(FIELDS, async (values) => {
    await dataProvider.sendInvitation({ group_id: values.group_id, email: values.email });
    notifySuccess('people.team.invite_sent');
    onInvited?.();
    onClose();
  });

  if (!isPending && !groups.length) {
    return (
      <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="invite-title">
        <DialogTitle id="invite-title">{translate('people.team.invite_title')}</DialogTitle>
        <InviteNeedsGroup onClose={onClose} />
      </Dialog>
    );
  }
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="invite-title">
      <Form defaultValues={{ group_id: '', email: '' }} onSubmit={send} validate={validate} mode="onChange" noValidate>
        <DialogTitle id="invite-title">{translate('people.team.invite_title')}</DialogTitle>
        <DialogContent>
          <SelectInput
            source="group_id"
            label="resources.team.fields.group_id"
            choices={groups}
            optionText="name"
            isPending={isPending}
            emptyText=""
            fullWidth
          />
          <TextInput source="email" type="email" label="people.fields.email" autoComplete="off" fullWidth />
          <ErrorList errors={errors} />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
          <SubmitButton>{translate('people.team.invite_send')}</SubmitButton>
        </DialogActions>
      </Form>
    </Dialog>
  );
}
