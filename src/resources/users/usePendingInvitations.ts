/**
 * The pending invitations of GET /api/user_invite/ for the Team screen, with Resend and Cancel.
 * `reload()` after an invitation is sent; failures go to the screen's error list (`onError`).
 */
import { useCallback, useEffect, useState } from 'react';
import { useDataProvider } from 'react-admin';
import { paths } from '../../providers/apiPaths';
import type { AppDataProvider } from '../../providers/dataProvider';

export interface PendingInvitation {
  id: string;
  email: string;
  group: { id: number; name: string } | null;
  invited_by: string | null;
  created_at: string;
  expires_at: string;
  is_expired: boolean;
}

interface PendingPage {
  count: number;
  results: PendingInvitation[];
}

/** All pending invitations the screen shows at once (a team rarely has more open). */
const PENDING_LIMIT = 100;

export function usePendingInvitations(enabled: boolean, onError: (error: unknown) => void) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const [invitations, setInvitations] = useState<PendingInvitation[]>([]);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` is the reload trigger
  useEffect(() => {
    if (!enabled) return;
    let current = true;
    dataProvider
      .call<PendingPage>(`${paths.invitationsPending}?limit=${PENDING_LIMIT}`)
      .then((page) => current && setInvitations(page.results))
      .catch((error: unknown) => current && onError(error));
    return () => {
      current = false;
    };
  }, [enabled, dataProvider, onError, version]);

  const act = useCallback(
    async (id: string, url: string, method: 'POST' | 'DELETE') => {
      setBusyId(id);
      try {
        await dataProvider.call(url, { method });
        reload();
        return true;
      } catch (error) {
        onError(error);
        return false;
      } finally {
        setBusyId(null);
      }
    },
    [dataProvider, onError, reload],
  );

  return {
    invitations,
    busyId,
    reload,
    resend: (id: string) => act(id, paths.invitationResend(id), 'POST'),
    cancel: (id: string) => act(id, paths.invitation(id), 'DELETE'),
  };
}
