/**
 * A new invitation (/invitations/create) — how a team member is created: the permission group and
 * the e-mail; the server mails the colleague a /join link, and they are in Team once they join.
 * Team's Invite button opens the same inputs in a dialog. Saved pessimistically: the server's field
 * errors show under their fields, anything else in the snackbar; success goes to Team, where the
 * invitation is pending.
 */
import PersonAddAlt from '@mui/icons-material/PersonAddAlt';
import { Box, Stack } from '@mui/material';
import { Create, SaveButton, SimpleForm, Toolbar, useNotify, useRedirect } from 'react-admin';
import { useNotifySuccess } from '../../layout/forms';
import { SNACKBAR_TIMEOUT_MS } from '../../../shared/constants';
import { PageTitle } from '../../layout/pageTitle';
import { CreateGroupLink, NoGroupToJoin } from './NoGroupToJoin';
import {
  INVITE_DEFAULTS,
  inviteMessagesOutsideFields,
  InvitationInputs,
  useInviteGroups,
  validateInvite,
} from './InvitationInputs';

export default function InvitationCreate() {
  const notifySuccess = useNotifySuccess();
  const notify = useNotify();
  const redirect = useRedirect();
  const { groups, isPending, none } = useInviteGroups();
  const onSuccess = () => {
    notifySuccess('people.team.invite_sent');
    redirect('/team');
  };
  const onError = (error: unknown) => {
    const text = inviteMessagesOutsideFields(error).join(' ');
    if (text) notify(text, { type: 'error', autoHideDuration: SNACKBAR_TIMEOUT_MS, messageArgs: { _: text } });
  };
  return (
    <Create title={false} mutationOptions={{ onSuccess, onError }}>
      <PageTitle title="resources.invitations.create_page" />
      {none ? (
        <Stack spacing={2} sx={{ p: 2 }} alignItems="flex-start">
          <NoGroupToJoin />
          <CreateGroupLink />
        </Stack>
      ) : (
        <SimpleForm
          validate={validateInvite}
          // The e-mail's own checks say why (inviteSchema), not the browser's.
          noValidate
          defaultValues={INVITE_DEFAULTS}
          toolbar={
            <Toolbar>
              <SaveButton label="people.team.invite_send" icon={<PersonAddAlt />} alwaysEnable />
            </Toolbar>
          }
        >
          <Box sx={{ width: '100%', maxWidth: 480 }}>
            <InvitationInputs groups={groups} isPending={isPending} />
          </Box>
        </SimpleForm>
      )}
    </Create>
  );
}
