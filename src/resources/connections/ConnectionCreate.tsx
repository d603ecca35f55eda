/**
 * Add a Meta connection (/meta_connections/create, admins): a name (optional) and a system user's
 * token. The server asks Meta about the token before keeping it: a refusal shows under the token
 * field (and, as every refused form, in the snackbar); success opens the new connection with the ad
 * accounts it reaches. The token is typed into a password field and never shown again.
 */
import { Alert, Box } from '@mui/material';
import { Create, SaveButton, SimpleForm, TextInput, Toolbar, useRedirect, useTranslate } from 'react-admin';
import { useNotifySuccess } from '../../layout/forms';
import {
  mayChangeConnections,
  metaConnectionCreateSchema,
  type MetaConnectionDetailDto,
} from '../../../shared/metaConnections';
import { formValidator } from '../../../shared/validation';
import { PageTitle } from '../../layout/pageTitle';
import { useSessionUser } from '../../providers/usePermissions';

const validate = formValidator(metaConnectionCreateSchema);

export default function ConnectionCreate() {
  const translate = useTranslate();
  const notifySuccess = useNotifySuccess();
  const redirect = useRedirect();
  const mayChange = mayChangeConnections(useSessionUser());
  const onSuccess = (created: MetaConnectionDetailDto) => {
    notifySuccess('resources.meta_connections.notifications.created');
    redirect('show', 'meta_connections', created.id);
  };
  return (
    <Create title={false} mutationOptions={{ onSuccess }}>
      <PageTitle title="resources.meta_connections.create_page" />
      {mayChange ? (
        <SimpleForm
          validate={validate}
          defaultValues={{ name: '', token: '' }}
          toolbar={
            <Toolbar>
              <SaveButton label="resources.meta_connections.add" alwaysEnable />
            </Toolbar>
          }
        >
          <Box sx={{ width: '100%', maxWidth: 560 }}>
            <TextInput
              source="name"
              label="resources.meta_connections.fields.name"
              helperText="resources.meta_connections.name_help"
              autoComplete="off"
              fullWidth
            />
            <TextInput
              source="token"
              type="password"
              label="resources.meta_connections.fields.token"
              helperText="resources.meta_connections.token_help"
              autoComplete="new-password"
              fullWidth
            />
          </Box>
        </SimpleForm>
      ) : (
        <Alert severity="info" sx={{ m: 2 }}>
          {translate('resources.meta_connections.admins_only')}
        </Alert>
      )}
    </Create>
  );
}
