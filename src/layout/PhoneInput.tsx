/**
 * The phone field of the Account, Confirm invitation and team member forms: a tel input whose
 * helper text and placeholder show the format the phone rule accepts (shared/validation.ts);
 * a refused number shows the rule's message, which says the same, in the helper text's place.
 */
import { TextInput, type TextInputProps, useTranslate } from 'react-admin';
import { PHONE_EXAMPLE } from '../../shared/validation';

export function PhoneInput(props: Omit<TextInputProps, 'source'>) {
  const translate = useTranslate();
  return (
    <TextInput
      source="phone"
      type="tel"
      helperText={translate('people.hints.phone')}
      placeholder={PHONE_EXAMPLE}
      {...props}
    />
  );
}
