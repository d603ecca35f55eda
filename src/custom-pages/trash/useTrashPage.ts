/**
 * The trash screen's state and flow: the search, the folders found (more load as the page nears its
 * bottom), the screen's errors (a failed page's among them), and the restores and deletes.
 */
import { useEffect, useState } from 'react';
import { useErrorList } from '../../layout/ErrorList';
import { rowsOf } from '../../providers/offsetPaging';
import { useInfiniteScroll } from '../general/useInfiniteScroll';
import { useTrashChanges } from './useTrashChanges';
import { useTrashPages } from './trashPages';

export function useTrashPage() {
  const { errors, showError, clearErrors } = useErrorList();
  const [search, setSearch] = useState('');
  const list = useTrashPages(search);
  const folders = rowsOf(list.data);

  useEffect(() => {
    if (list.error) showError(list.error);
  }, [list.error, showError]);

  useInfiniteScroll({
    canLoadMore: list.hasNextPage && !list.isError,
    loading: list.isFetching,
    loadMore: () => void list.fetchNextPage(),
    loads: list.data?.pages.length ?? 0,
  });

  const searchFor = (text: string) => {
    clearErrors();
    setSearch(text);
  };

  return {
    errors,
    search,
    searchFor,
    folders,
    loading: list.isFetching,
    /** Loaded, and nothing (or nothing matching the search) is in the trash. */
    empty: Boolean(list.data) && !list.isFetching && !folders.length,
    ...useTrashChanges({ clearErrors, showError }),
  };
}
