/**
 * The group form's inputs, shared by Create and Edit: its name, a checkbox per access, the folders
 * where its rule accesses apply and its approval limit.
 */
import { CheckboxGroupInput, TextInput } from 'react-admin';
import { permissionLabel } from '../../../shared/permissions';
import { ApprovalLimitInput, RuleFoldersInput } from './RuleScopeInputs';
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
      <RuleFoldersInput />
      <ApprovalLimitInput />
    </>
  );
}
