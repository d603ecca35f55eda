/**
 * Change password (docs/screens.md, docs/screens.md#errors-and-messages): old password, new password and its repeat. The server ends every
 * other session and answers fresh tokens for this one, which the session keeps.
 */
import { Stack } from '@mui/material';
import { useState } from 'react';
import { Form, PasswordInput, useDataProvider, useTranslate } from 'react-admin';
import { changePasswordSchema, formValidator } from '../../../shared/validation';
import { ErrorList } from '../../layout/ErrorList';
import type { AppDataProvider } from '../../providers/dataProvider';
import type { ChangePasswordRequest } from '../../providers/peopleMethods';
import { session } from '../../providers/session';
import { SubmitButton, useNotifySuccess, useServerFormSubmit } from '../../layout/forms';

const FIELDS = ['old_password', 'new_password', 'new_password2'] as const;
const validate = formValidator(changePasswordSchema);
const EMPTY = { old_password: '', new_password: '', new_password2: '' };

export function ChangePasswordForm() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const notifySuccess = useNotifySuccess();
  const [generation, setGeneration] = useState(0);

  const { onSubmit: change, errors } = useServerFormSubmit<ChangePasswordRequest>(FIELDS, async (values) => {
    const answer = await dataProvider.changePassword(values);
    if (answer?.access) session.update({ access_token: answer.access, refresh_token: answer.refresh ?? null });
    notifySuccess('people.account.password_changed');
    setGeneration((n) => n + 1); // a fresh, empty form
  });

  return (
    <Form key={generation} defaultValues={EMPTY} onSubmit={change} validate={validate} mode="onChange" noValidate>
      <Stack spacing={0} sx={{ maxWidth: 480 }}>
        <PasswordInput source="old_password" label="people.fields.old_password" autoComplete="current-password" />
        <PasswordInput source="new_password" label="people.fields.new_password" autoComplete="new-password" />
        <PasswordInput source="new_password2" label="people.fields.new_password2" autoComplete="new-password" />
        <ErrorList errors={errors} />
        <div>
          <SubmitButton>{translate('people.account.change_password')}</SubmitButton>
        </div>
      </Stack>
    </Form>
  );
}
