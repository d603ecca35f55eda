/** A permission group's form: rename it and set its accesses in one save (update_permissions). */
import { Edit, SimpleForm } from 'react-admin';
import { groupUpdateSchema } from '../../../shared/people';
import { formValidator } from '../../../shared/validation';
import { PageTitle } from '../../layout/pageTitle';
import { useNotifyFailure } from '../../layout/forms';
import { PermissionGroupInputs } from './PermissionGroupInputs';

const validate = formValidator(groupUpdateSchema);

export default function PermissionGroupEdit() {
  const notifyFailure = useNotifyFailure();
  return (
    <Edit redirect="list" mutationMode="pessimistic" title={false} mutationOptions={{ onError: notifyFailure }}>
      <PageTitle title="resources.permissions.edit_page" />
      <SimpleForm validate={validate}>
        <PermissionGroupInputs />
      </SimpleForm>
    </Edit>
  );
}
