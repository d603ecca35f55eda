/**
 * Infinite lists paged by offset (react-query's useInfiniteQuery): the next page starts after the
 * rows held, so a row removed from or added to the cached pages keeps the next page exact (the
 * "offset delta"), and a refetch walks the pages again from offset 0.
 */
import type { InfiniteData } from '@tanstack/react-query';
import type { PageOf } from './ruleMethods';

export const rowsHeld = <T>(pages: PageOf<T>[]) => pages.reduce((n, page) => n + page.results.length, 0);

export const offsetPaging = {
  initialPageParam: 0,
  getNextPageParam: <T>(last: PageOf<T>, pages: PageOf<T>[]) =>
    last.next && last.results.length ? rowsHeld(pages) : undefined,
};

/** The rows of every loaded page, each id once (a row that moved between pages shows once). */
export function rowsOf<T extends { id: number }>(data: InfiniteData<PageOf<T>> | undefined): T[] {
  const seen = new Set<number>();
  const rows: T[] = [];
  for (const row of data?.pages.flatMap((page) => page.results) ?? []) {
    if (seen.has(row.id)) continue;
    seen.add(row.id);
    rows.push(row);
  }
  return rows;
}
