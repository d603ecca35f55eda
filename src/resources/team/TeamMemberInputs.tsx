/**
 * A member's profile inputs: first name, last name, phone; the e-mail address is shown, not edited
 * here (changing it is confirmed by mail, from the member's own Account screen).
 */
import { TextInput } from 'react-admin';
import { PhoneInput } from '../../layout/PhoneInput';

export function TeamMemberInputs() {
  return (
    <>
      <TextInput source="first_name" autoComplete="off" fullWidth />
      <TextInput source="last_name" autoComplete="off" fullWidth />
      <PhoneInput autoComplete="off" fullWidth />
      <TextInput source="email" disabled fullWidth />
    </>
  );
}
