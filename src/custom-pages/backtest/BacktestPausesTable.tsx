/** The table of a backtest's pauses, scrolling under its header (cards on a phone). */
import { Table, TableBody, TableCell, TableContainer, TableHead, TableRow } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { BacktestPause } from '../../../shared/backtest';
import { tableToCardsSx } from '../../layout/list/HistoryList';
import { BacktestPauseRow } from './BacktestPauseRow';

export function BacktestPausesTable({
  pauses,
  currency,
  timezone,
}: {
  pauses: BacktestPause[];
  currency: string;
  timezone: string;
}) {
  const translate = useTranslate();
  return (
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
          {pauses.map((pause) => (
            <BacktestPauseRow
              key={`${pause.at}|${pause.object_id}`}
              pause={pause}
              currency={currency}
              timezone={timezone}
            />
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
