/** Password reset request (/password-reset, docs/screens.md): an e-mail field, a submit, and a link to /login. */
import { Alert, Button, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { Form, TextInput, useDataProvider, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { formValidator, passwordResetRequestSchema } from '../../../shared/validation';
import { ErrorList } from '../../layout/ErrorList';
import type { AppDataProvider } from '../../providers/dataProvider';
import type { PasswordResetRequest } from '../../providers/peopleMethods';
import { SubmitButton, useNotifySuccess, useServerFormSubmit } from '../../layout/forms';
import { PublicCard } from '../../layout/PublicCard';

const validate = formValidator(passwordResetRequestSchema);

export function PasswordResetRequestPage() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const notifySuccess = useNotifySuccess();
  const [sent, setSent] = useState(false);

  const { onSubmit: request, errors } = useServerFormSubmit<PasswordResetRequest>(['email'], async (values) => {
    setSent(false);
    await dataProvider.requestPasswordReset({ email: values.email });
    setSent(true);
    notifySuccess('people.password_reset.sent');
  });

  return (
    <PublicCard title="people.password_reset.title" pageName="app.page.password_reset">
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate('people.password_reset.intro')}
      </Typography>
      <Form defaultValues={{ email: '' }} onSubmit={request} validate={validate} mode="onChange" noValidate>
        <TextInput source="email" type="email" label="people.fields.email" autoComplete="email" fullWidth />
        {sent ? (
          <Alert severity="success" sx={{ my: 1 }}>
            {translate('people.password_reset.sent')}
          </Alert>
        ) : null}
        <ErrorList errors={errors} />
        <Stack direction="row" justifyContent="space-between" alignItems="center" sx={{ mt: 1 }}>
          <Button component={RouterLink} to="/login" size="small">
            {translate('people.password_reset.back_to_login')}
          </Button>
          <SubmitButton>{translate('people.password_reset.submit')}</SubmitButton>
        </Stack>
      </Form>
    </PublicCard>
  );
}

export default PasswordResetRequestPage;
