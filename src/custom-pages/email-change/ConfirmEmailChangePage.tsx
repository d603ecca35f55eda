/**
 * Confirm e-mail change (/confirm-email-change/{token}): the page the link mailed to a new address
 * opens. Nothing changes until Confirm is pressed (a mail scanner opening the link changes nothing);
 * then every session ends and the owner signs in with the new address.
 */
import { Stack, Typography } from '@mui/material';
import { Form, useDataProvider, useTranslate } from 'react-admin';
import { useNavigate, useParams } from 'react-router-dom';
import { ErrorList } from '../../layout/ErrorList';
import { PublicCard } from '../../layout/PublicCard';
import type { AppDataProvider } from '../../providers/dataProvider';
import { SubmitButton, useNotifySuccess, useServerFormSubmit } from '../../layout/forms';

export function ConfirmEmailChangePage() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { token = '' } = useParams();
  const dataProvider = useDataProvider<AppDataProvider>();
  const notifySuccess = useNotifySuccess();

  const { onSubmit: confirm, errors } = useServerFormSubmit([], async () => {
    await dataProvider.confirmEmailChange(token);
    notifySuccess('people.confirm_email.done');
    navigate('/login');
  });

  return (
    <PublicCard title="people.confirm_email.title" pageName="app.page.confirm_email_change">
      <Form onSubmit={confirm} noValidate>
        <Typography variant="body2">{translate('people.confirm_email.intro')}</Typography>
        <ErrorList errors={errors} />
        <Stack direction="row" justifyContent="flex-end" sx={{ mt: 2 }}>
          <SubmitButton>{translate('people.confirm_email.submit')}</SubmitButton>
        </Stack>
      </Form>
    </PublicCard>
  );
}

export default ConfirmEmailChangePage;
