/**
 * Confirm invitation (/join/{invite_code}, docs/screens.md, docs/screens.md#errors-and-messages): first name, last name, phone, password and
 * its confirmation; the code comes from the address. On success, the login route.
 */
import { Stack, Typography } from '@mui/material';
import { Form, PasswordInput, TextInput, useDataProvider, useTranslate } from 'react-admin';
import { useNavigate, useParams } from 'react-router-dom';
import { formValidator, joinSchema } from '../../../shared/validation';
import { ErrorList } from '../../layout/ErrorList';
import type { AppDataProvider } from '../../providers/dataProvider';
import type { JoinRequest } from '../../providers/peopleMethods';
import { SubmitButton, useNotifySuccess, useServerFormSubmit } from '../../layout/forms';
import { PublicCard } from '../../layout/PublicCard';
import { PhoneInput } from '../../layout/PhoneInput';

const FIELDS = ['first_name', 'last_name', 'phone', 'password', 'password2'] as const;
const validateWithCode = formValidator(joinSchema);
const EMPTY = { first_name: '', last_name: '', phone: '', password: '', password2: '' };

export function JoinPage() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { invite_code = '' } = useParams();
  const dataProvider = useDataProvider<AppDataProvider>();
  const notifySuccess = useNotifySuccess();

  const { onSubmit: join, errors } = useServerFormSubmit<Omit<JoinRequest, 'invite_code'>>(FIELDS, async (values) => {
    await dataProvider.acceptInvitation({ ...values, invite_code });
    notifySuccess('people.join.confirmed');
    navigate('/login');
  });

  return (
    <PublicCard title="people.join.title" pageName="app.page.join">
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate('people.join.intro')}
      </Typography>
      <Form
        defaultValues={EMPTY}
        onSubmit={join}
        validate={(values) => validateWithCode({ ...values, invite_code })}
        mode="onChange"
        noValidate
      >
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ sm: 2 }}>
          <TextInput source="first_name" label="people.fields.first_name" autoComplete="given-name" fullWidth />
          <TextInput source="last_name" label="people.fields.last_name" autoComplete="family-name" fullWidth />
        </Stack>
        <PhoneInput label="people.fields.phone" autoComplete="tel" fullWidth />
        <PasswordInput source="password" label="people.fields.password" autoComplete="new-password" fullWidth />
        <PasswordInput source="password2" label="people.fields.password2" autoComplete="new-password" fullWidth />
        <ErrorList errors={errors} />
        <Stack direction="row" justifyContent="flex-end" sx={{ mt: 1 }}>
          <SubmitButton>{translate('people.join.submit')}</SubmitButton>
        </Stack>
      </Form>
    </PublicCard>
  );
}

export default JoinPage;
