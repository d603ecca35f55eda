/**
 * A finished backtest: totals, pauses per day, and the table of its pauses with what followed, a
 * page at a time (the job's answer carries the first page; the others are asked for).
 */
import {
  Alert,
  Box,
  Chip,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  Typography,
} from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import { BACKTEST_PAUSES_PAGE, type BacktestResult, type PauseVerdict } from '../../../shared/backtest';
import { itemLabel } from '../../../shared/rules';
import { tableToCardsSx } from '../../layout/list/HistoryList';
import type { AppDataProvider } from '../../providers/dataProvider';
import { errorMessages } from '../../providers/httpClient';
import { queryKeys } from '../../providers/queryKeys';
import { DailyBars, formatMoney, Totals } from '../impact/DailyBars';
import { BacktestBudgetChanges } from './BacktestBudgetChanges';
import { formatDateTime, formatDay } from '../../layout/dateFormat';

const VERDICT_COLOR: Record<PauseVerdict, 'success' | 'error' | 'info' | 'default'> = {
  stopped_waste: 'success',
  paused_converter: 'error',
  goal_reached: 'info',
  held: 'default',
};

export function BacktestResultView({ jobId, result }: { jobId: string; result: BacktestResult }) {
  const translate = useTranslate();
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
  const pauses = page === 0 ? result.results : (laterPage.data?.results ?? []);
  const money = (n: number) => formatMoney(n, result.account.currency);
  const when = (iso: string) => formatDateTime(iso, result.timezone);
  const { totals } = result;
  return (
    <Stack spacing={2}>
      <Totals
        items={[
          { label: translate('backtest.totals.pauses'), value: String(totals.pauses) },
          {
            label: translate('backtest.totals.converters'),
            value: String(totals.converters_paused),
            warn: totals.converters_paused > 0,
          },
          { label: translate('backtest.totals.spend_stopped'), value: money(totals.spend_stopped) },
          { label: translate('backtest.totals.leads_lost'), value: String(totals.leads_lost) },
          ...(totals.held ? [{ label: translate('backtest.totals.held'), value: String(totals.held) }] : []),
        ]}
      />
      <Typography variant="body2" color="text.secondary">
        {translate('backtest.estimate_note')}
      </Typography>
      <BacktestBudgetChanges result={result} />
      <Box>
        <Typography variant="subtitle2" component="h3">
          {translate('backtest.timeline')}
        </Typography>
        <DailyBars
          summary={result.by_day.map((d) => `${formatDay(d.date)}: ${d.pauses}`).join(', ')}
          legend={{
            bar: translate('backtest.legend.bar'),
            part: translate('backtest.legend.part'),
            count: translate('backtest.legend.count'),
          }}
          days={result.by_day.map((d) => ({
            date: d.date,
            value: d.pauses,
            part: d.converters_paused,
            label: d.pauses ? String(d.pauses) : '',
            title: translate('backtest.day_title', {
              date: formatDay(d.date),
              pauses: translate('backtest.pauses', { smart_count: d.pauses }),
              converters: translate('backtest.converters', { smart_count: d.converters_paused }),
              stopped: money(d.spend_stopped),
            }),
          }))}
        />
      </Box>
      {result.results_count > result.results_listed ? (
        <Typography variant="body2" color="text.secondary">
          {translate('backtest.listed_first', {
            listed: result.results_listed.toLocaleString('en-US'),
            count: result.results_count.toLocaleString('en-US'),
          })}
        </Typography>
      ) : null}
      {page > 0 && laterPage.error ? (
        <Alert severity="warning">{errorMessages(laterPage.error).join(' ')}</Alert>
      ) : null}
      {result.results.length === 0 ? (
        <Typography>{translate('backtest.none')}</Typography>
      ) : (
        <TableContainer
          sx={[tableToCardsSx, { maxHeight: { sm: 480 } }]}
          tabIndex={0}
          role="region"
          aria-label={translate('backtest.title')}
        >
          <Table size="small" stickyHeader aria-label={translate('backtest.title')}>
            <TableHead>
              <TableRow>
                <TableCell>{translate('backtest.col.when')}</TableCell>
                <TableCell>{translate('backtest.col.object')}</TableCell>
                <TableCell>{translate('backtest.col.trigger')}</TableCell>
                <TableCell>{translate('backtest.col.after')}</TableCell>
                <TableCell>{translate('backtest.col.verdict')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {pauses.map((r) => (
                <TableRow key={`${r.at}|${r.object_id}`}>
                  <TableCell data-label={translate('backtest.col.when')} sx={{ whiteSpace: 'nowrap' }}>
                    {when(r.at)}
                  </TableCell>
                  <TableCell data-label={translate('backtest.col.object')}>
                    <Typography variant="body2">{r.name}</Typography>
                    <Typography variant="caption" color="text.secondary">
                      {r.object_type === 'ad' ? r.campaign_name : r.object_id}
                    </Typography>
                  </TableCell>
                  <TableCell data-label={translate('backtest.col.trigger')}>
                    <Typography variant="caption" component="div" color="text.secondary">
                      {itemLabel(r.task)}
                    </Typography>
                    {Object.entries(r.reason)
                      .filter(([key]) => key !== 'Campaign' && key !== 'Ad')
                      .map(([key, value]) => (
                        <Typography key={key} variant="body2">{`${key}: ${value}`}</Typography>
                      ))}
                    {r.settled_numbers ? (
                      <Chip size="small" variant="outlined" label={translate('backtest.settled_flag')} />
                    ) : null}
                  </TableCell>
                  <TableCell data-label={translate('backtest.col.after')}>
                    {translate('backtest.after', {
                      spend: money(r.spend_after),
                      leads: translate('backtest.leads', { smart_count: r.leads_after }),
                      cpl: r.final_cpl === null ? '—' : money(r.final_cpl),
                    })}
                  </TableCell>
                  <TableCell data-label={translate('backtest.col.verdict')}>
                    <Chip
                      size="small"
                      color={VERDICT_COLOR[r.verdict]}
                      label={translate(`backtest.verdict.${r.verdict}`)}
                    />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
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
    </Stack>
  );
}
