/** Account details (docs/screens.md): first name, last name, phone, email (read-only); Save for a changed, valid form. */
import { Stack } from '@mui/material';
import { Form, TextInput, useDataProvider, useTranslate } from 'react-admin';
import { accountSchema, formValidator } from '../../../shared/validation';
import { ErrorList } from '../../layout/ErrorList';
import { PhoneInput } from '../../layout/PhoneInput';
import type { AppDataProvider } from '../../providers/dataProvider';
import { session, type SessionUser } from '../../providers/session';
import { SubmitButton, useNotifySuccess, useServerFormSubmit } from '../../layout/forms';

const FIELDS = ['first_name', 'last_name', 'phone', 'email'] as const;
const validate = formValidator(accountSchema);

export function AccountForm({ user }: { user: SessionUser }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const notifySuccess = useNotifySuccess();

  const { onSubmit: save, errors } = useServerFormSubmit(FIELDS, async (values) => {
    const { data } = await dataProvider.update('team', { id: user.id, data: values, previousData: user });
    session.update({ user: { ...user, ...(data as Partial<SessionUser>) } });
    notifySuccess('people.account.saved');
  });

  const record = { first_name: user.first_name, last_name: user.last_name, phone: user.phone ?? '', email: user.email };
  return (
    // `key`: after a save the saved values become the new starting point, so Save disables again.
    <Form key={JSON.stringify(record)} record={record} onSubmit={save} validate={validate} mode="onChange" noValidate>
      <Stack spacing={0} sx={{ maxWidth: 480 }}>
        <TextInput source="first_name" label="people.fields.first_name" autoComplete="given-name" />
        <TextInput source="last_name" label="people.fields.last_name" autoComplete="family-name" />
        <PhoneInput label="people.fields.phone" autoComplete="tel" />
        <TextInput source="email" label="people.fields.email" type="email" disabled />
        <ErrorList errors={errors} />
        <div>
          <SubmitButton whenValid whenChanged>
            {translate('people.account.save')}
          </SubmitButton>
        </div>
      </Stack>
    </Form>
  );
}
