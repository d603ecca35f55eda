/**
 * The General view's folder list (docs/screens.md) as a react-query infinite query through the
 * dataProvider, 20 folders a page, and the edits its actions make to the cached pages so a change
 * shows at once. Each edit also marks the lists stale: the next visit loads them again.
 */
import { type InfiniteData, type QueryClient, useInfiniteQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import { FOLDER_PAGE_SIZE } from '../../../shared/constants';
import type { FolderDto } from '../../../shared/folders';
import type { AppDataProvider } from '../../providers/dataProvider';
import { offsetPaging } from '../../providers/offsetPaging';
import { queryKeys } from '../../providers/queryKeys';
import type { PageOf } from '../../providers/ruleMethods';

type FolderPages = InfiniteData<PageOf<FolderDto>, number>;

export function useFolderPages(search: string) {
  const dataProvider = useDataProvider<AppDataProvider>();
  return useInfiniteQuery({
    queryKey: queryKeys.folderPages(search),
    queryFn: ({ pageParam, signal }) =>
      dataProvider.getFolderPage({ search, limit: FOLDER_PAGE_SIZE, offset: pageParam, signal }),
    ...offsetPaging,
    // A failed page stops the automatic loading (docs/screens.md#errors-and-messages shows the error) until the next search.
    retry: false,
  });
}

const allFolderPages = [...queryKeys.folders, 'pages'];

function editFolderPages(queryClient: QueryClient, edit: (data: FolderPages) => FolderPages) {
  queryClient.setQueriesData<FolderPages>({ queryKey: allFolderPages }, (data) => data && edit(data));
  void queryClient.invalidateQueries({ queryKey: queryKeys.folders, refetchType: 'none' });
}

export function removeFolder(queryClient: QueryClient, id: number) {
  editFolderPages(queryClient, (data) => ({
    ...data,
    pages: data.pages.map((page) =>
      page.results.some((f) => f.id === id)
        ? { ...page, results: page.results.filter((f) => f.id !== id), count: Math.max(page.count - 1, 0) }
        : page,
    ),
  }));
}

/** Shows the folder as the server now has it (a trashed one leaves the list). */
export function replaceFolder(queryClient: QueryClient, folder: FolderDto) {
  if (folder.is_deleted) return removeFolder(queryClient, folder.id);
  editFolderPages(queryClient, (data) => ({
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      results: page.results.map((f) => (f.id === folder.id ? folder : f)),
    })),
  }));
}

/** A folder just created: the list is oldest first, so it shows once the last page is loaded. */
export function addCreatedFolder(queryClient: QueryClient, folder: FolderDto) {
  queryClient.setQueryData<FolderPages>(queryKeys.folderPages(''), (data) => {
    const last = data?.pages.at(-1);
    if (!data || !last) return data;
    const pages = data.pages.map((page) => ({ ...page, count: page.count + 1 }));
    if (!last.next) pages[pages.length - 1] = { ...pages.at(-1)!, results: [...last.results, folder] };
    return { ...data, pages };
  });
  void queryClient.invalidateQueries({ queryKey: queryKeys.folders, refetchType: 'none' });
}
