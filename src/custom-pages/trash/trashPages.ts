/**
 * The trash list (docs/contract.md#calls): 10 folders a page, newest trashed first, searchable, as a react-query
 * infinite query through the dataProvider. Restores and deletes invalidate it, so it loads again.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import { TRASH_PAGE_SIZE } from '../../../shared/constants';
import type { AppDataProvider } from '../../providers/dataProvider';
import { offsetPaging } from '../../providers/offsetPaging';
import { queryKeys } from '../../providers/queryKeys';

/** Most recently trashed first (the server's trash_page ordering key). */
export const TRASH_ORDERING = '-trashed_at';

export function useTrashPages(search: string) {
  const dataProvider = useDataProvider<AppDataProvider>();
  return useInfiniteQuery({
    queryKey: queryKeys.trashPages(search, TRASH_ORDERING),
    queryFn: ({ pageParam, signal }) =>
      dataProvider.getTrashPage({
        search,
        limit: TRASH_PAGE_SIZE,
        offset: pageParam,
        ordering: TRASH_ORDERING,
        signal,
      }),
    ...offsetPaging,
    // A failed page stops the automatic loading (the error list shows why) until the next search.
    retry: false,
  });
}
