/**
 * An invitation's inputs: the permission group the colleague joins and their e-mail (inviteSchema in
 * shared/validation.ts, the server's too). Shared by the Create view (/invitations/create) and
 * Team's Invite dialog. `useInviteGroups` says whether there is a group to join at all.
 */
import { SelectInput, TextInput, useGetList } from 'react-admin';
import type { RaRecord } from 'react-admin';
import { splitServerErrors } from '../../layout/forms';
import { formValidator, inviteSchema } from '../../../shared/validation';

const INVITE_FIELDS = ['group_id', 'email'] as const;
export const INVITE_DEFAULTS = { group_id: '', email: '' };
export const validateInvite = formValidator(inviteSchema);

/** A refused invitation's messages that belong to no input (the inputs show their own). */
export const inviteMessagesOutsideFields = (error: unknown): string[] => splitServerErrors(error, INVITE_FIELDS).others;

/** Every permission group, by name: an invitation's choices (none yet: the form says so instead). */
export function useInviteGroups() {
  const { data = [], isPending } = useGetList('permissions', {
    pagination: { page: 1, perPage: 1000 },
    sort: { field: 'name', order: 'ASC' },
  });
  return { groups: data, isPending, none: !isPending && !data.length };
}

export function InvitationInputs({ groups, isPending }: { groups: RaRecord[]; isPending: boolean }) {
  return (
    <>
      <SelectInput
        source="group_id"
        label="resources.team.fields.group_id"
        choices={groups}
        optionText="name"
        isPending={isPending}
        emptyText=""
        fullWidth
      />
      <TextInput source="email" type="email" label="people.fields.email" autoComplete="off" fullWidth />
    </>
  );
}
