/**
 * Where the user left the General view (docs/screens.md): search text, opened folders and scroll position.
 * It lives in the app's QueryClient as data that is never fetched, so it outlasts a visit to the
 * editor, is gone after a reload (folders start closed again), and is cleared at logout with the
 * rest of the cache, so another user starts afresh.
 */
import { skipToken, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { queryKeys } from '../../providers/queryKeys';

export interface GeneralView {
  search: string;
  opened: number[];
  scrollY: number;
}

const START: GeneralView = { search: '', opened: [], scrollY: 0 };

export function useGeneralView() {
  const queryClient = useQueryClient();
  const { data } = useQuery({
    queryKey: queryKeys.generalView,
    queryFn: skipToken,
    initialData: START,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
  const update = useCallback(
    (patch: Partial<GeneralView> | ((view: GeneralView) => Partial<GeneralView>)) => {
      queryClient.setQueryData<GeneralView>(queryKeys.generalView, (view = START) => ({
        ...view,
        ...(typeof patch === 'function' ? patch(view) : patch),
      }));
    },
    [queryClient],
  );
  return [data ?? START, update] as const;
}
