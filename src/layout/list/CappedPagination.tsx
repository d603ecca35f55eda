/**
 * Pagination for lists whose total the server may only estimate (log, activity, campaigns): with
 * an exact total it is react-admin's own ("1-10 of 23"); with the planner's estimate it reads
 * "1-10 of about 52,000", with a lower bound "1-10 of 1,000+", and pages on with next/previous
 * until the server says there is no further page (whose answer carries the exact total again).
 */
import { useCallback } from 'react';
import { Pagination, useListContext, type PaginationProps } from 'react-admin';
import type { TotalEstimate } from '../../providers/dataProvider';

const counted = new Intl.NumberFormat('en-US');

/**
 * An estimate to two significant digits, "about 52,000" rather than a precise-looking 51,873, and
 * never below `atLeast` (the last row on screen).
 */
export function roughly(n: number, atLeast: number): number {
  if (n < 100) return Math.max(n, atLeast);
  const step = 10 ** (Math.floor(Math.log10(n)) - 1);
  const rounded = Math.round(n / step) * step;
  return rounded >= atLeast ? rounded : Math.max(n, atLeast);
}

export function CappedPagination(props: PaginationProps) {
  const { total, meta, data } = useListContext();
  const estimate = total == null ? (meta as { totalEstimate?: TotalEstimate } | undefined)?.totalEstimate : undefined;
  const shown = data?.length ?? 0;
  // Without a count, MUI takes a page as full; the last row is the one actually on screen.
  const label = useCallback(
    ({ from }: { from: number }) => {
      const to = from + Math.max(shown, 1) - 1;
      const range = `${counted.format(from)}-${counted.format(to)}`;
      if (!estimate) return range;
      // Never an estimate below the rows already on screen.
      if (estimate.atLeast) return `${range} of ${counted.format(Math.max(estimate.count, to))}+`;
      return `${range} of about ${counted.format(roughly(estimate.count, to))}`;
    },
    [estimate, shown],
  );
  if (!estimate) return <Pagination {...props} />;
  // Pagination hands its other props on to MUI's TablePagination, whose label this is.
  const withLabel = { ...props, labelDisplayedRows: label } as PaginationProps;
  return <Pagination {...withLabel} />;
}
