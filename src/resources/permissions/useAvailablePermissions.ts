/** The permission names the server offers (GET /api/groups/available_permissions/, docs/contract.md#permissions). */
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { Permission } from '../../../shared/permissions';
import type { AppDataProvider } from '../../providers/dataProvider';
import { queryKeys } from '../../providers/queryKeys';

export function useAvailablePermissions(): Permission[] {
  const dataProvider = useDataProvider<AppDataProvider>();
  const { data } = useQuery({
    queryKey: queryKeys.availablePermissions,
    queryFn: ({ signal }) => dataProvider.getAvailablePermissions(signal),
    staleTime: Infinity,
  });
  return data ?? [];
}
