/**
 * Invite (docs/screens.md Team): a dialog with the permission group and the e-mail — the invitation
 * resource's Create inputs (as /invitations/create has them), saved by the same dataProvider create;
 * the server mails the colleague a /join link, and the create refreshes Team's pending invitations.
 * Shown to users with add_edit_users. With no group yet it says so and leads to creating one.
 */
import PersonAddAlt from '@mui/icons-material/PersonAddAlt';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { useState } from 'react';
import { CreateBase, Form, useTranslate } from 'react-admin';
import { PEOPLE_ACCESS } from '../../../shared/permissions';
import { ErrorList, useErrorList } from '../../layout/ErrorList';
import { usePermission } from '../../providers/usePermissions';
import { SubmitButton, useNotifySuccess } from '../../layout/forms';
import { CreateGroupLink, NoGroupToJoin } from '../invitations/NoGroupToJoin';
import {
  INVITE_DEFAULTS,
  inviteMessagesOutsideFields,
  InvitationInputs,
  useInviteGroups,
  validateInvite,
} from '../invitations/InvitationInputs';

export function InviteButton() {
  const translate = useTranslate();
  const mayInvite = usePermission(PEOPLE_ACCESS.manageMembers);
  const [open, setOpen] = useState(false);
  if (!mayInvite) return null;
  return (
    <>
      <Button variant="contained" startIcon={<PersonAddAlt />} onClick={() => setOpen(true)}>
        {translate('people.team.invite')}
      </Button>
      {open ? <InviteDialog onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function InviteDialog({ onClose }: { onClose: () => void }) {
  const translate = useTranslate();
  const notifySuccess = useNotifySuccess();
  const { groups, isPending, none } = useInviteGroups();
  const { errors, setErrors } = useErrorList();
  const onSuccess = () => {
    notifySuccess('people.team.invite_sent');
    onClose();
  };
  const onError = (error: unknown) => setErrors(inviteMessagesOutsideFields(error));
  const title = <DialogTitle id="invite-title">{translate('people.team.invite_title')}</DialogTitle>;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="invite-title">
      {none ? (
        <>
          {title}
          <DialogContent>
            <NoGroupToJoin />
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
            <CreateGroupLink />
          </DialogActions>
        </>
      ) : (
        <CreateBase resource="invitations" redirect={false} mutationOptions={{ onSuccess, onError }}>
          <Form defaultValues={INVITE_DEFAULTS} validate={validateInvite} mode="onChange" noValidate>
            {title}
            <DialogContent>
              <InvitationInputs groups={groups} isPending={isPending} />
              <ErrorList errors={errors} />
            </DialogContent>
            <DialogActions>
              <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
              <SubmitButton>{translate('people.team.invite_send')}</SubmitButton>
            </DialogActions>
          </Form>
        </CreateBase>
      )}
    </Dialog>
  );
}
