/**
 * Pagination for lists whose total the server caps (log, activity, campaigns): with an exact total
 * it is react-admin's own ("1-10 of 23"); with only a lower bound it reads "1-10 of 10,000+" and
 * pages on with next/previous until the server says there is no further page.
 */
import { useCallback } from 'react';
import { Pagination, useListContext, type PaginationProps } from 'react-admin';

const counted = new Intl.NumberFormat('en-US');

export function CappedPagination(props: PaginationProps) {
  const { total, meta, data } = useListContext();
  const totalAtLeast = total == null ? (meta as { totalAtLeast?: number } | undefined)?.totalAtLeast : undefined;
  const shown = data?.length ?? 0;
  // Without a count, MUI takes a page as full; the last row is the one actually on screen.
  const label = useCallback(
    ({ from }: { from: number }) => {
      const to = from + Math.max(shown, 1) - 1;
      return `${counted.format(from)}-${counted.format(to)} of ${counted.format(Math.max(Number(totalAtLeast), to))}+`;
    },
    [totalAtLeast, shown],
  );
  if (typeof totalAtLeast !== 'number') return <Pagination {...props} />;
  // Pagination hands its other props on to MUI's TablePagination, whose label this is.
  const withLabel = { ...props, labelDisplayedRows: label } as PaginationProps;
  return <Pagination {...withLabel} />;
}
