/**
 * The folders list of the general view (SPEC §2): search text, page (from 0), limit 20, next and
 * previous links, offset delta, scroll position, opened folders and the folders themselves.
 * It lives outside the page, so coming back from the rule editor finds the list where it was
 * (then refreshed, so a saved change shows).
 */
import { useSyncExternalStore } from 'react';
import { FOLDER_PAGE_SIZE } from '../../domain/constants';
import type { FolderDto } from '../../domain/folders';
import { rulesApi, type ListQuery, type PageOf } from './api';

export interface FolderListState {
  /** Whose list this is: another user signing in starts afresh. */
  userId: number | null;
  search: string;
  page: number;
  limit: number;
  next: string | null;
  previous: string | null;
  /** Folders removed (−) from pages already loaded: the next page's offset moves by as many. */
  offsetDelta: number;
  scrollY: number;
  opened: number[];
  folders: FolderDto[];
  count: number;
  loading: boolean;
  /** The first page has arrived. */
  loaded: boolean;
  /** The last load failed: automatic loading stops until the next search or refresh. */
  failed: boolean;
}

export type FetchFolders = (query: ListQuery) => Promise<PageOf<FolderDto>>;

const initialState = (userId: number | null = null): FolderListState => ({
  userId,
  search: '',
  page: 0,
  limit: FOLDER_PAGE_SIZE,
  next: null,
  previous: null,
  offsetDelta: 0,
  scrollY: 0,
  opened: [],
  folders: [],
  count: 0,
  loading: false,
  loaded: false,
  failed: false,
});

/** Server pages are at most this long; a refresh of more folders takes several calls. */
const MAX_LIMIT = 100;

export function createFolderListStore(fetchFolders: FetchFolders = (q) => rulesApi.folders(q)) {
  let state = initialState();
  let request = 0;
  const listeners = new Set<() => void>();
  const set = (patch: Partial<FolderListState>) => {
    state = { ...state, ...patch };
    for (const listener of listeners) listener();
  };

  const store = {
    getState: () => state,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    reset(userId: number | null = null) {
      request += 1;
      state = initialState(userId);
      for (const listener of listeners) listener();
    },

    /** The next page, while more exist. Answers whether a page was loaded. */
    async loadMore(): Promise<boolean> {
      if (state.loading || (state.loaded && !state.next)) return false;
      const mine = ++request;
      set({ loading: true });
      const offset = state.page * state.limit + state.offsetDelta;
      try {
        const answer = await fetchFolders({ search: state.search, limit: state.limit, offset });
        if (mine !== request) return false;
        const known = new Set(state.folders.map((f) => f.id));
        set({
          folders: [...state.folders, ...answer.results.filter((f) => !known.has(f.id))],
          page: state.page + 1,
          next: answer.next,
          previous: answer.previous,
          count: answer.count,
          loading: false,
          loaded: true,
          failed: false,
        });
        return true;
      } catch (error) {
        if (mine === request) set({ loading: false, failed: true });
        throw error;
      }
    },

    /** A new search: paging starts over from the first page. */
    async search(search: string): Promise<void> {
      if (search === state.search && state.loaded) return;
      request += 1;
      set({ ...initialState(state.userId), search, opened: state.opened });
      await store.loadMore();
    },

    /** Loads again what is on screen (after coming back to the page), keeping paging in step. */
    async refresh(): Promise<void> {
      const shown = Math.max(state.folders.length, state.limit);
      const mine = ++request;
      set({ loading: true });
      try {
        const folders: FolderDto[] = [];
        let answer: PageOf<FolderDto> | null = null;
        for (let offset = 0; offset < shown; offset += MAX_LIMIT) {
          answer = await fetchFolders({ search: state.search, limit: Math.min(MAX_LIMIT, shown - offset), offset });
          folders.push(...answer.results);
          if (!answer.next) break;
        }
        if (mine !== request || !answer) return;
        const page = Math.floor(folders.length / state.limit);
        set({
          folders,
          page,
          offsetDelta: folders.length - page * state.limit,
          next: folders.length < answer.count ? answer.next : null,
          previous: null,
          count: answer.count,
          loading: false,
          loaded: true,
          failed: false,
        });
      } catch (error) {
        if (mine === request) set({ loading: false, failed: true });
        throw error;
      }
    },

    /** On opening the page: start, or pick up where this user left it. */
    async open(userId: number | null): Promise<void> {
      if (state.userId !== userId) store.reset(userId);
      if (state.loaded) await store.refresh();
      else await store.loadMore();
    },

    replaceFolder(folder: FolderDto) {
      if (folder.is_deleted) return store.removeFolder(folder.id);
      set({ folders: state.folders.map((f) => (f.id === folder.id ? folder : f)) });
    },

    removeFolder(id: number) {
      if (!state.folders.some((f) => f.id === id)) return;
      set({
        folders: state.folders.filter((f) => f.id !== id),
        offsetDelta: state.offsetDelta - 1,
        count: Math.max(state.count - 1, 0),
        opened: state.opened.filter((o) => o !== id),
      });
    },

    /** A folder just created: the list is oldest first, so it shows once the last page is loaded. */
    addCreated(folder: FolderDto) {
      const opened = [...state.opened, folder.id];
      if (state.loaded && !state.next && !state.search) {
        set({
          folders: [...state.folders, folder],
          count: state.count + 1,
          offsetDelta: state.offsetDelta + 1,
          opened,
        });
      } else {
        set({ count: state.count + 1, opened });
      }
    },

    toggleOpen(id: number) {
      set({ opened: state.opened.includes(id) ? state.opened.filter((o) => o !== id) : [...state.opened, id] });
    },

    saveScroll(scrollY: number) {
      state = { ...state, scrollY };
    },
  };
  return store;
}

export type FolderListStore = ReturnType<typeof createFolderListStore>;

/** The app's one list. */
export const folderListStore = createFolderListStore();

export function useFolderListState(store: FolderListStore = folderListStore): FolderListState {
  return useSyncExternalStore(store.subscribe, store.getState);
}
