/**
 * Another member's profile (add_edit_users, and every access the member holds: the server says
 * which). Saved pessimistically: the server's field errors show under their fields, a refusal in
 * the snackbar.
 */
import { Edit, SaveButton, SimpleForm, Toolbar } from 'react-admin';
import { accountSchema, formValidator } from '../../../shared/validation';
import { PageTitle } from '../../layout/pageTitle';
import { useNotifyFailure } from '../../layout/forms';
import { TeamMemberInputs } from './TeamMemberInputs';

const validate = formValidator(accountSchema.pick({ first_name: true, last_name: true, phone: true }));

export default function TeamMemberEdit() {
  const notifyFailure = useNotifyFailure();
  return (
    <Edit redirect="list" mutationMode="pessimistic" title={false} mutationOptions={{ onError: notifyFailure }}>
      <PageTitle title="resources.team.edit_page" />
      <SimpleForm
        validate={validate}
        // No Delete: members are deactivated, never deleted (the API has no such call).
        toolbar={
          <Toolbar>
            <SaveButton />
          </Toolbar>
        }
      >
        <TeamMemberInputs />
      </SimpleForm>
    </Edit>
  );
}
