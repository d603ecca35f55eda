/**
 * A finished backtest's pauses: how many are listed when not all are, why a later page did not load,
 * the table of a page (or that there were none), and the pages when there is more than one.
 */
import { Alert, TablePagination, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { BACKTEST_PAUSES_PAGE, type BacktestResult } from '../../../shared/backtest';
import { errorMessages } from '../../providers/httpClient';
import { BacktestPausesTable } from './BacktestPausesTable';
import { useBacktestPauses } from './useBacktestPauses';

function ListedFirstNote({ result }: { result: BacktestResult }) {
  const translate = useTranslate();
  if (result.results_count <= result.results_listed) return null;
  return (
    <Typography variant="body2" color="text.secondary">
      {translate('backtest.listed_first', {
        listed: result.results_listed.toLocaleString('en-US'),
        count: result.results_count.toLocaleString('en-US'),
      })}
    </Typography>
  );
}

export function BacktestPauses({ jobId, result }: { jobId: string; result: BacktestResult }) {
  const translate = useTranslate();
  const { page, setPage, pauses, error } = useBacktestPauses(jobId, result);
  return (
    <>
      <ListedFirstNote result={result} />
      {error ? <Alert severity="warning">{errorMessages(error).join(' ')}</Alert> : null}
      {result.results.length === 0 ? (
        <Typography>{translate('backtest.none')}</Typography>
      ) : (
        <BacktestPausesTable pauses={pauses} currency={result.account.currency} timezone={result.timezone} />
      )}
      {result.results_listed > BACKTEST_PAUSES_PAGE ? (
        <TablePagination
          component="div"
          count={result.results_listed}
          page={page}
          rowsPerPage={BACKTEST_PAUSES_PAGE}
          rowsPerPageOptions={[BACKTEST_PAUSES_PAGE]}
          onPageChange={(_event, next) => setPage(next)}
        />
      ) : null}
    </>
  );
}
