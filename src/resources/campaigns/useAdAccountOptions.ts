import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { AppDataProvider } from '../../providers/dataProvider';
import { queryKeys } from '../../providers/queryKeys';
import type { AdAccountOption } from '../../providers/ruleMethods';

/** The ad accounts to filter by (the folder dialog's list, so one load serves both); none while it fails. */
export function useAdAccountOptions(): AdAccountOption[] {
  const dataProvider = useDataProvider<AppDataProvider>();
  const { data = [] } = useQuery({
    queryKey: queryKeys.adAccounts,
    queryFn: ({ signal }) => dataProvider.getAdAccounts(signal),
  });
  return data;
}
