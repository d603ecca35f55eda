/**
 * The page of a finished backtest's pauses on screen: the job's answer carries the first page; the
 * others are asked for through the dataProvider (the last page stays shown while the next loads).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useDataProvider } from 'react-admin';
import { BACKTEST_PAUSES_PAGE, type BacktestResult } from '../../../shared/backtest';
import type { AppDataProvider } from '../../providers/dataProvider';
import { queryKeys } from '../../providers/queryKeys';

export function useBacktestPauses(jobId: string, result: BacktestResult) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const [page, setPage] = useState(0);
  const offset = page * BACKTEST_PAUSES_PAGE;
  const laterPage = useQuery({
    queryKey: queryKeys.backtestPauses(jobId, offset),
    queryFn: ({ signal }) => dataProvider.getBacktestPauses(jobId, { limit: BACKTEST_PAUSES_PAGE, offset, signal }),
    enabled: page > 0,
    retry: false,
    placeholderData: keepPreviousData,
  });
  return {
    page,
    setPage,
    pauses: page === 0 ? result.results : (laterPage.data?.results ?? []),
    /** Why a later page did not load. */
    error: page > 0 ? laterPage.error : null,
  };
}
