/**
 * Confirm password reset (/confirm-password-reset/{token}, docs/screens.md, docs/screens.md#states-and-transitions, docs/screens.md#errors-and-messages): a back link home, the
 * trash link, Password and Confirm Password, and Save (enabled for a valid form, no request running).
 * Password-field errors show under the fields, any other (the token) in the error list.
 */
import ArrowBack from '@mui/icons-material/ArrowBack';
import { Button, Stack } from '@mui/material';
import { Form, PasswordInput, useDataProvider, useTranslate } from 'react-admin';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { formValidator, passwordResetConfirmSchema } from '../../../shared/validation';
import { ErrorList } from '../../layout/ErrorList';
import { TrashLink } from '../../layout/TrashLink';
import type { AppDataProvider } from '../../providers/dataProvider';
import type { PasswordResetConfirmRequest } from '../../providers/peopleMethods';
import { SubmitButton, useNotifySuccess, useServerFormSubmit } from '../../layout/forms';
import { PublicCard } from '../../layout/PublicCard';

const FIELDS = ['password', 'password2'] as const;
const validateWithToken = formValidator(passwordResetConfirmSchema);

export function ConfirmPasswordResetPage() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { token = '' } = useParams();
  const dataProvider = useDataProvider<AppDataProvider>();
  const notifySuccess = useNotifySuccess();

  const { onSubmit: save, errors } = useServerFormSubmit<Omit<PasswordResetConfirmRequest, 'token'>>(
    FIELDS,
    async (values) => {
      await dataProvider.confirmPasswordReset({ password: values.password, password2: values.password2, token });
      notifySuccess('people.confirm_reset.done');
      navigate('/login');
    },
  );

  return (
    <PublicCard title="people.confirm_reset.title" pageName="app.page.confirm_password_reset">
      <Stack direction="row" justifyContent="space-between" alignItems="center" sx={{ mb: 1 }}>
        <Button component={RouterLink} to="/" startIcon={<ArrowBack />}>
          {translate('people.confirm_reset.home')}
        </Button>
        <TrashLink />
      </Stack>
      <Form
        defaultValues={{ password: '', password2: '' }}
        onSubmit={save}
        validate={(values) => validateWithToken({ ...values, token })}
        mode="onChange"
        noValidate
      >
        <PasswordInput source="password" label="people.fields.password" autoComplete="new-password" fullWidth />
        <PasswordInput source="password2" label="people.fields.password2" autoComplete="new-password" fullWidth />
        <ErrorList errors={errors} />
        <Stack direction="row" justifyContent="flex-end" sx={{ mt: 1 }}>
          <SubmitButton whenValid>{translate('people.confirm_reset.save')}</SubmitButton>
        </Stack>
      </Form>
    </PublicCard>
  );
}

export default ConfirmPasswordResetPage;
