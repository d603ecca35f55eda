/**
 * The "Try on history" dialog's line on the folder's recorded history: the account, the days it
 * covers, its ads and how much of it is settled (or that it has none), with Refill beside it.
 */
import { Button, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { HistoryCoverage as Coverage } from '../../../shared/backtest';
import { formatDay } from '../../layout/dateFormat';

export function HistoryCoverage({
  coverage,
  accountName,
  filling,
  onFill,
}: {
  /** undefined: not known (yet); nothing is shown. */
  coverage: Coverage | undefined;
  accountName?: string | null;
  filling: boolean;
  onFill: () => void;
}) {
  const translate = useTranslate();
  if (!coverage) return null;
  const c = coverage;
  return (
    <Stack direction="row" spacing={1} alignItems="center" useFlexGap flexWrap="wrap">
      <Typography variant="body2">
        {c.readings
          ? translate('backtest.coverage', {
              account: accountName ? `${accountName} (${c.ad_account_id})` : c.ad_account_id,
              first: formatDay(c.first),
              last: formatDay(c.last),
              ads: c.ads,
              settled: Math.round((c.settled_readings / c.readings) * 100),
            })
          : translate('backtest.no_history')}
      </Typography>
      {/* A partly recorded account (an ad added since, a day the product did not read) is
          filled in on demand; hours already recorded keep their readings. */}
      {c.readings ? (
        <Button size="small" onClick={onFill} loading={filling}>
          {translate('backtest.refill')}
        </Button>
      ) : null}
    </Stack>
  );
}
