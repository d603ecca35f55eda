/**
 * A new permission group: 'New group' with no accesses unless changed here. Saved pessimistically,
 * so the server's refusal of a field (a name too long) shows under it.
 */
import { Create, SaveButton, SimpleForm, Toolbar } from 'react-admin';
import { NEW_GROUP_NAME } from '../../domain/constants';
import { groupCreateSchema } from '../../domain/people';
import { formValidator } from '../../domain/validation';
import { PageTitle } from '../../layout/pageTitle';
import { useNotifyFailure } from '../../custom-pages/account/forms';
import { GroupInputs } from './GroupInputs';

const validate = formValidator(groupCreateSchema);

export default function GroupCreate() {
  const notifyFailure = useNotifyFailure();
  return (
    <Create redirect="list" title={false} mutationOptions={{ onError: notifyFailure }}>
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
        <GroupInputs />
      </SimpleForm>
    </Create>
  );
}
