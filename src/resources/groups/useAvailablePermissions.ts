/** The permission names the server offers (GET /api/groups/available_permissions/, docs/contract.md#permissions). */
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import { paths } from '../../providers/apiPaths';
import type { AppDataProvider } from '../../providers/dataProvider';

export function useAvailablePermissions(): string[] {
  const dataProvider = useDataProvider<AppDataProvider>();
  const { data } = useQuery({
    queryKey: ['permissions', 'available_permissions'],
    queryFn: () => dataProvider.call<string[]>(paths.availablePermissions),
    staleTime: Infinity,
  });
  return data ?? [];
}
