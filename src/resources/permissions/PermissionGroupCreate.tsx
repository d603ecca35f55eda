/**
 * A new permission group: 'New group' with no accesses unless changed here. Saved pessimistically,
 * so the server's refusal of a field (a name too long) shows under it. Opened from Team's Invite
 * (no group yet), it goes back to Team once saved; otherwise to the list.
 */
import { Create, SaveButton, SimpleForm, Toolbar } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { NEW_GROUP_NAME } from '../../../shared/constants';
import { groupCreateSchema } from '../../../shared/people';
import { formValidator } from '../../../shared/validation';
import { PageTitle } from '../../layout/pageTitle';
import { useNotifyFailure } from '../../layout/forms';
import { PermissionGroupInputs } from './PermissionGroupInputs';

const validate = formValidator(groupCreateSchema);

export default function PermissionGroupCreate() {
  const notifyFailure = useNotifyFailure();
  const returnTo = (useLocation().state as { returnTo?: string } | null)?.returnTo;
  return (
    <Create redirect={returnTo ? () => returnTo : 'list'} title={false} mutationOptions={{ onError: notifyFailure }}>
      <PageTitle title="resources.permissions.create_page" />
      <SimpleForm
        validate={validate}
        defaultValues={{ name: NEW_GROUP_NAME, group_access: { accesses: [] } }}
        // The defaults are a group already: it can be saved as it is.
        toolbar={
          <Toolbar>
            <SaveButton alwaysEnable />
          </Toolbar>
        }
      >
        <PermissionGroupInputs />
      </SimpleForm>
    </Create>
  );
}
