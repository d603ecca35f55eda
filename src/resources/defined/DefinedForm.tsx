/**
 * Create and edit views of a resource defined in one file: one form over DefinedInputs, checked in
 * the browser with the schema the server checks the body with, saved pessimistically so the
 * server's field errors show on their fields. A resource may add a panel under the edit form (extras.tsx).
 */
import { Create, Edit, SimpleForm } from 'react-admin';
import { createSchemaOf, type ResourceSpec } from '../../../shared/resources/define';
import { formValidator } from '../../../shared/validation';
import { PageTitle } from '../../layout/pageTitle';
import { DefinedInputs } from './DefinedInputs';
import { definedExtras } from './extras';

export function DefinedCreate({ spec }: { spec: ResourceSpec }) {
  return (
    <Create redirect="list" title={false}>
      <PageTitle title={`resources.${spec.name}.create_page`} />
      <SimpleForm validate={formValidator(createSchemaOf(spec))}>
        <DefinedInputs spec={spec} />
      </SimpleForm>
    </Create>
  );
}

export function DefinedEdit({ spec }: { spec: ResourceSpec }) {
  const Panel = definedExtras[spec.name]?.EditPanel;
  return (
    <Edit redirect="list" mutationMode="pessimistic" title={false}>
      <PageTitle title={`resources.${spec.name}.edit_page`} />
      <SimpleForm validate={formValidator(createSchemaOf(spec))}>
        <DefinedInputs spec={spec} />
      </SimpleForm>
      {Panel ? <Panel /> : null}
    </Edit>
  );
}
