/** The trash list: 10 folders a page (SPEC §9), searchable, reloaded in place after a restore or delete. */
import { useCallback, useRef, useState } from 'react';
import { TRASH_PAGE_SIZE } from '../../domain/constants';
import { rulesApi, type TrashFolderDto } from '../general/api';

export interface TrashListState {
  search: string;
  folders: TrashFolderDto[];
  next: string | null;
  loading: boolean;
  loaded: boolean;
  failed: boolean;
  pages: number;
}

const empty = (search = ''): TrashListState => ({
  search,
  folders: [],
  next: null,
  loading: false,
  loaded: false,
  failed: false,
  pages: 0,
});

export function useTrashList(onError: (error: unknown) => void) {
  const [state, setState] = useState<TrashListState>(empty);
  const current = useRef(state);
  current.current = state;
  const request = useRef(0);

  const fetchInto = useCallback(
    async (base: TrashListState, offset: number, limit: number, replace: boolean) => {
      const mine = ++request.current;
      setState({ ...base, loading: true });
      try {
        const answer = await rulesApi.trash({ search: base.search, limit, offset });
        if (mine !== request.current) return;
        const folders = replace
          ? answer.results
          : [...base.folders, ...answer.results.filter((f) => !base.folders.some((b) => b.id === f.id))];
        setState({
          ...base,
          folders,
          next: answer.next,
          loading: false,
          loaded: true,
          failed: false,
          pages: base.pages + 1,
        });
      } catch (error) {
        if (mine !== request.current) return;
        setState({ ...base, loading: false, failed: true });
        onError(error);
      }
    },
    [onError],
  );

  const loadMore = useCallback(() => {
    const s = current.current;
    if (s.loading || (s.loaded && !s.next)) return;
    void fetchInto(s, s.folders.length, TRASH_PAGE_SIZE, false);
  }, [fetchInto]);

  const search = useCallback((text: string) => void fetchInto(empty(text), 0, TRASH_PAGE_SIZE, true), [fetchInto]);

  /** After a restore or delete: the same number of folders again, from the top. */
  const reload = useCallback(() => {
    const s = current.current;
    void fetchInto(s, 0, Math.min(Math.max(s.folders.length, TRASH_PAGE_SIZE), 100), true);
  }, [fetchInto]);

  return { state, loadMore, search, reload };
}
