/** Under the lead-lag allowance: the ad account's measured lead lag and the allowance it suggests. */
import { Button, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import type { AppDataProvider } from '../../../providers/dataProvider';
import { queryKeys } from '../../../providers/queryKeys';

export function LeadLagHint({ adAccountId, onUse }: { adAccountId: string | null; onUse?: (hours: number) => void }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const health = useQuery({
    queryKey: queryKeys.accountHealth(adAccountId ?? ''),
    queryFn: ({ signal }) => dataProvider.getAccountHealth(adAccountId!, signal),
    enabled: adAccountId !== null,
    retry: false,
  });
  // A template has no ad account: each following folder's own lag applies.
  if (adAccountId === null) return null;
  const lag = health.data?.lead_lag;
  if (!lag) {
    return (
      <Typography variant="body2" color="text.secondary">
        {translate('judging.lag_unmeasured')}
      </Typography>
    );
  }
  return (
    <Stack direction="row" spacing={1} alignItems="center" useFlexGap sx={{ flexWrap: 'wrap' }}>
      <Typography variant="body2" color="text.secondary">
        {translate('judging.lag_measured', {
          days: lag.days,
          share: Math.round(lag.late_share * 100),
          leads: translate(`judging.lead_kinds.${lag.lead_kind}`),
          hours90: lag.hours_to_90,
          suggested: lag.suggested_lag_hours,
        })}
      </Typography>
      {onUse ? (
        <Button size="small" onClick={() => onUse(lag.suggested_lag_hours)}>
          {translate('judging.lag_use', { hours: lag.suggested_lag_hours })}
        </Button>
      ) : null}
    </Stack>
  );
}
