/**
 * The health panel (/health): the Graph tokens' checks (the built-in one's and each added Meta
 * connection's) and each watched ad account's — access, lead tracking — with its measured lead lag.
 * While an account has a problem its rules' runs are held; the panel says since when and why.
 */
import { Alert, Card, CardContent, Chip, LinearProgress, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import { Page } from '../../layout/Page';
import type { AccountHealthDto, HealthProblemDto } from '../../../shared/health';
import type { AppDataProvider } from '../../providers/dataProvider';
import { errorMessages } from '../../providers/httpClient';
import { queryKeys } from '../../providers/queryKeys';
import { formatDateTime } from '../../layout/dateFormat';

const when = (iso: string) => formatDateTime(iso);

function Problems({ problems }: { problems: HealthProblemDto[] }) {
  const translate = useTranslate();
  return (
    <Stack spacing={1}>
      {problems.map((p) => (
        <Alert key={`${p.check}-${p.since}`} severity={p.state === 'problem' ? 'error' : 'warning'}>
          <strong>{translate(`judging.health.checks.${p.check}`)}</strong>: {p.detail} (
          {translate('judging.health.since', { date: when(p.since) })})
        </Alert>
      ))}
    </Stack>
  );
}

/** A token's card: what is wrong with it, or that it works. */
function TokenCard({
  title,
  problems,
  checkedAt,
}: {
  title: string;
  problems: HealthProblemDto[];
  checkedAt: string | null;
}) {
  const translate = useTranslate();
  return (
    <Card variant="outlined" component="section" aria-label={title}>
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          {title}
        </Typography>
        {problems.length ? (
          <Problems problems={problems} />
        ) : (
          <Typography variant="body2">
            {checkedAt ? translate('judging.health.token_ok') : translate('judging.health.unchecked')}
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}

function AccountCard({ account }: { account: AccountHealthDto }) {
  const translate = useTranslate();
  const color = account.state === 'problem' ? 'error' : account.state === 'ok' ? 'success' : 'default';
  return (
    <Card variant="outlined" component="section" aria-label={account.account_name}>
      <CardContent>
        <Stack direction="row" spacing={1} alignItems="center" useFlexGap sx={{ flexWrap: 'wrap', mb: 1 }}>
          <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
            {account.account_name}{' '}
            <Typography component="span" variant="body2" color="text.secondary">
              {account.ad_account_id}
            </Typography>
          </Typography>
          <Chip size="small" color={color} label={translate(`judging.health.${account.state}`)} />
        </Stack>
        <Problems problems={account.problems} />
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {account.lead_lag
            ? translate('judging.health.lead_lag', {
                share: Math.round(account.lead_lag.late_share * 100),
                leads: translate(`judging.lead_kinds.${account.lead_lag.lead_kind}`),
                hours: account.lead_lag.suggested_lag_hours,
              })
            : translate('judging.lag_unmeasured')}
        </Typography>
        {account.checked_at ? (
          <Typography variant="caption" color="text.secondary">
            {translate('judging.health.checked_at', { date: when(account.checked_at) })}
          </Typography>
        ) : null}
      </CardContent>
    </Card>
  );
}

export default function HealthPage() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const health = useQuery({
    queryKey: queryKeys.platformHealth,
    queryFn: ({ signal }) => dataProvider.getPlatformHealth(signal),
    retry: false,
  });
  return (
    <Page title="judging.health.title" maxWidth={960}>
      <Stack spacing={2} sx={{ pt: 1 }}>
        <Typography variant="body2" color="text.secondary">
          {translate('judging.health.help')}
        </Typography>
        {health.error ? <Alert severity="error">{errorMessages(health.error).join(' ')}</Alert> : null}
        {!health.data && !health.error ? <LinearProgress /> : null}
        {health.data ? (
          <>
            <TokenCard
              title={translate('judging.health.token')}
              problems={health.data.token.problems}
              checkedAt={health.data.token.checked_at}
            />
            {health.data.connections.map((connection) => (
              <TokenCard
                key={connection.id}
                title={connection.name}
                problems={connection.problems}
                checkedAt={connection.checked_at}
              />
            ))}
            {health.data.accounts.length ? (
              health.data.accounts.map((account) => <AccountCard key={account.ad_account_id} account={account} />)
            ) : (
              <Typography>{translate('judging.health.no_accounts')}</Typography>
            )}
          </>
        ) : null}
      </Stack>
    </Page>
  );
}
