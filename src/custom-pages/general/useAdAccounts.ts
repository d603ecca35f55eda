import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useDataProvider } from 'react-admin';
import type { AppDataProvider } from '../../providers/dataProvider';
import { queryKeys } from '../../providers/queryKeys';
import type { AdAccountOption } from '../../providers/ruleMethods';

const NO_ACCOUNTS: AdAccountOption[] = [];

/** The ad-account options (GET /api/meta_ad_account/?limit=400) and their refresh from the ad platform. */
export function useAdAccounts(open: boolean, onError: (error: unknown) => void) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: queryKeys.adAccounts,
    queryFn: ({ signal }) => dataProvider.getAdAccounts(signal),
    enabled: open,
    retry: false,
  });
  // Pending until the list has loaded again, so the button spins for the whole refresh.
  const refresh = useMutation({
    mutationFn: () => dataProvider.refreshAdAccounts(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.adAccounts }),
    onError,
  });
  useEffect(() => {
    if (list.error) onError(list.error);
  }, [list.error, onError]);
  return { accounts: list.data ?? NO_ACCOUNTS, refresh: () => refresh.mutate(), refreshing: refresh.isPending };
}
