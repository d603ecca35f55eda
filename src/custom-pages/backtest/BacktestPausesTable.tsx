/** The table of a backtest's pauses, scrolling under its header (cards on a phone). */
import { TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { BacktestPause } from '../../../shared/backtest';
import { RegionTable } from '../../layout/list';
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
    <RegionTable label={translate('backtest.title')} maxHeight={480}>
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
    </RegionTable>
  );
}
