/**
 * New template (/templates/create): a name; it starts from a new rule's defaults, switched off, and
 * opens for editing.
 */
import { Create, SaveButton, SimpleForm, TextInput, Toolbar, required, useRedirect } from 'react-admin';
import { useNotifySuccess } from '../../layout/forms';
import type { TemplateDto } from '../../../shared/templates';
import { PageTitle } from '../../layout/pageTitle';

export default function TemplateCreate() {
  const notifySuccess = useNotifySuccess();
  const redirect = useRedirect();
  const onSuccess = (created: TemplateDto) => {
    notifySuccess('resources.templates.created');
    redirect('edit', 'templates', created.id);
  };
  return (
    <Create title={false} mutationOptions={{ onSuccess }}>
      <PageTitle title="resources.templates.create_page" />
      <SimpleForm
        defaultValues={{ name: '' }}
        toolbar={
          <Toolbar>
            <SaveButton label="resources.templates.add" alwaysEnable />
          </Toolbar>
        }
      >
        <TextInput
          source="name"
          label="resources.templates.fields.name"
          helperText="resources.templates.name_help"
          validate={required()}
          autoComplete="off"
          sx={{ maxWidth: 560 }}
          fullWidth
        />
      </SimpleForm>
    </Create>
  );
}
