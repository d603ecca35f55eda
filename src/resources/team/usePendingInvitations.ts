/**
 * The pending invitations for the Team screen: the invitations resource's list (GET
 * /api/user_invite/, newest first), with Resend (a named call) and Cancel (the resource's delete).
 * A new invitation (its create) refreshes the list as any react-admin create does.
 * Failures go to the screen's error list (`onError`).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useEffectEvent } from 'react';
import { useDataProvider, useGetList } from 'react-admin';
import type { PendingInvitationDto } from '../../../shared/people';
import type { AppDataProvider } from '../../providers/dataProvider';

export type PendingInvitation = PendingInvitationDto;

/** All pending invitations Team shows at once (a team rarely has more open). */
const PENDING_INVITATIONS_SHOWN = 100;

/** react-admin's queries of the resource start with its name. */
const INVITATIONS = ['invitations'] as const;

type InvitationAction = { id: string; action: 'resend' | 'cancel' };

export function usePendingInvitations(enabled: boolean, onError: (error: unknown) => void) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const { data: invitations = [], error } = useGetList<PendingInvitation>(
    'invitations',
    { pagination: { page: 1, perPage: PENDING_INVITATIONS_SHOWN } },
    { enabled, retry: false },
  );
  const reportError = useEffectEvent(onError);
  useEffect(() => {
    if (error) reportError(error);
  }, [error]);

  const change = useMutation({
    mutationFn: async ({ id, action }: InvitationAction) => {
      if (action === 'resend') await dataProvider.resendInvitation(id);
      else await dataProvider.delete('invitations', { id });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: INVITATIONS }),
  });
  /** True once the server did it; a failure goes to the error list. */
  const act = async (invitation: InvitationAction) => {
    try {
      await change.mutateAsync(invitation);
      return true;
    } catch (failure) {
      onError(failure);
      return false;
    }
  };

  return {
    invitations,
    busyId: change.isPending ? (change.variables?.id ?? null) : null,
    resend: (id: string) => act({ id, action: 'resend' }),
    cancel: (id: string) => act({ id, action: 'cancel' }),
  };
}
