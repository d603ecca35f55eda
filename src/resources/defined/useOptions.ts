/** A reference field's choices: the rows of its list (`path` under /api/), fetched once and cached. */
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { AppDataProvider } from '../../providers/dataProvider';

export function useOptions(path: string, optionText: string) {
  const dataProvider = useDataProvider<AppDataProvider>();
  return useQuery({
    queryKey: ['options', path],
    queryFn: ({ signal }) => dataProvider.optionsOf(path, { signal }),
    select: (rows) => rows.map((row) => ({ id: row.id as number, name: String(row[optionText] ?? row.id) })),
    staleTime: 60_000,
  });
}
