/**
 * The pending invitations of GET /api/user_invite/ for the Team screen, with Resend and Cancel,
 * through react-query. `reload()` after an invitation is sent; failures go to the screen's error
 * list (`onError`).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useEffectEvent } from 'react';
import { useDataProvider } from 'react-admin';
import type { PendingInvitationDto } from '../../domain/people';
import type { AppDataProvider } from '../../providers/dataProvider';
import { queryKeys } from '../../providers/queryKeys';

export type PendingInvitation = PendingInvitationDto;

type InvitationAction = { id: string; action: 'resend' | 'cancel' };

export function usePendingInvitations(enabled: boolean, onError: (error: unknown) => void) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const { data: invitations = [], error } = useQuery({
    queryKey: queryKeys.pendingInvitations,
    queryFn: ({ signal }) => dataProvider.getPendingInvitations(signal),
    enabled,
    retry: false,
  });
  const reportError = useEffectEvent(onError);
  useEffect(() => {
    if (error) reportError(error);
  }, [error]);

  const reload = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: queryKeys.pendingInvitations }),
    [queryClient],
  );
  const change = useMutation({
    mutationFn: async ({ id, action }: InvitationAction) => {
      if (action === 'resend') await dataProvider.resendInvitation(id);
      else await dataProvider.cancelInvitation(id);
    },
    onSuccess: reload,
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
    reload,
    resend: (id: string) => act({ id, action: 'resend' }),
    cancel: (id: string) => act({ id, action: 'cancel' }),
  };
}
