/** Account (/account, docs/screens.md): the signed-in user's details and the Change password section. */
import { Card, CardContent, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Page } from '../../layout/Page';
import { useSessionUser } from '../../providers/usePermissions';
import { AccountForm } from './AccountForm';
import { ChangePasswordForm } from './ChangePasswordForm';
import { PendingEmailChange } from './PendingEmailChange';

export function AccountPage() {
  const translate = useTranslate();
  const user = useSessionUser();
  return (
    <Page title="people.account.title" maxWidth={528}>
      <Stack spacing={2} sx={{ pt: 1 }}>
        <Card variant="outlined">
          <CardContent>
            <Typography variant="h5" component="h1" gutterBottom>
              {translate('people.account.title')}
            </Typography>
            {user ? <PendingEmailChange userId={user.id} /> : null}
            {user ? <AccountForm user={user} /> : null}
          </CardContent>
        </Card>
        <Card variant="outlined">
          <CardContent>
            <Typography variant="h6" component="h2" gutterBottom>
              {translate('people.account.change_password')}
            </Typography>
            <ChangePasswordForm />
          </CardContent>
        </Card>
      </Stack>
    </Page>
  );
}

export default AccountPage;
