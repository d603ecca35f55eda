/** The group form's inputs, shared by Create and Edit: its name and a checkbox per access. */
import { CheckboxGroupInput, TextInput } from 'react-admin';
import { permissionLabel } from '../../domain/permissions';
import { useAvailablePermissions } from './useAvailablePermissions';

export function PermissionGroupInputs() {
  const available = useAvailablePermissions();
  return (
    <>
      <TextInput source="name" autoComplete="off" fullWidth />
      <CheckboxGroupInput
        source="group_access.accesses"
        label="resources.permissions.fields.accesses"
        choices={available.map((name) => ({ id: name, name: permissionLabel(name) }))}
        row={false}
      />
    </>
  );
}
