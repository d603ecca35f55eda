/**
 * One Meta connection (/meta_connections/{id}/show): what its token is (business, system user,
 * permissions, expiry, status with what is wrong) and the ad accounts it reaches, each marked when
 * another connection added earlier is the one used for it. Admins may remove an added connection.
 * On a phone each ad account is a card with its ID and its health (the health panel's state).
 */
import ArrowBack from '@mui/icons-material/ArrowBack';
import { Alert, Card, CardContent, Chip, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import {
  ArrayField,
  Datagrid,
  FunctionField,
  Labeled,
  ShowBase,
  TextField,
  useDataProvider,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import type { AccountHealthDto } from '../../domain/health';
import {
  mayChangeConnections,
  type ConnectionAdAccountDto,
  type MetaConnectionDetailDto,
} from '../../domain/metaConnections';
import { PageTitle } from '../../layout/pageTitle';
import { PageToolbar, ToolbarSpacer } from '../../layout/PageToolbar';
import { useNarrowScreen } from '../../layout/RowActions';
import type { AppDataProvider } from '../../providers/dataProvider';
import { queryKeys } from '../../providers/queryKeys';
import { usePermission, useSessionUser } from '../../providers/usePermissions';
import {
  ConnectionBusiness,
  ConnectionExpiry,
  ConnectionName,
  ConnectionScopes,
  ConnectionStatus,
} from './ConnectionFields';
import { RemoveConnectionButton } from './RemoveConnectionButton';
import { formatDateTime } from '../../layout/dateFormat';

const field = (name: string) => `resources.meta_connections.fields.${name}`;

function Problems() {
  const record = useRecordContext<MetaConnectionDetailDto>();
  if (!record?.problems.length) return null;
  return (
    <Stack spacing={1}>
      {record.problems.map((p) => (
        <Alert key={p.check} severity={p.state === 'problem' ? 'error' : 'warning'}>
          {p.detail}
        </Alert>
      ))}
    </Stack>
  );
}

function AccountName(_props: { label?: string }) {
  const translate = useTranslate();
  return (
    <FunctionField<ConnectionAdAccountDto>
      render={(account) => (
        <Stack component="span">
          <span>{account.account_name}</span>
          {account.served ? null : (
            <Typography
              variant="caption"
              component="span"
              color="text.secondary"
              title={translate('resources.meta_connections.served_hint')}
            >
              {translate('resources.meta_connections.not_served')}
            </Typography>
          )}
        </Stack>
      )}
    />
  );
}

/** Each watched ad account's health (the health panel's, read_rules), by ad account ID. */
function useAccountHealth(): Map<string, AccountHealthDto> | undefined {
  const dataProvider = useDataProvider<AppDataProvider>();
  const mayRead = usePermission('read_rules');
  const health = useQuery({
    queryKey: queryKeys.platformHealth,
    queryFn: ({ signal }) => dataProvider.getPlatformHealth(signal),
    enabled: mayRead,
    retry: false,
  });
  if (!health.data) return undefined;
  return new Map(health.data.accounts.map((account) => [account.ad_account_id, account]));
}

function HealthChip({ health }: { health: AccountHealthDto | undefined }) {
  const translate = useTranslate();
  if (!health)
    return (
      <Typography variant="body2" color="text.secondary">
        {translate('resources.meta_connections.not_watched')}
      </Typography>
    );
  const color = health.state === 'problem' ? 'error' : health.state === 'ok' ? 'success' : 'default';
  return (
    <Chip
      size="small"
      variant="outlined"
      color={color}
      label={translate(`judging.health.${health.state}`)}
      title={health.problems.map((p) => p.detail).join(' ') || undefined}
    />
  );
}

/** The reached ad accounts on a phone: a card each, with its ID and health. */
function AccountCards({ accounts }: { accounts: ConnectionAdAccountDto[] }) {
  const translate = useTranslate();
  const health = useAccountHealth();
  if (!accounts.length)
    return <Typography color="text.secondary">{translate('resources.meta_connections.no_accounts')}</Typography>;
  return (
    <Stack
      component="ul"
      spacing={1}
      sx={{ p: 0, m: 0, listStyle: 'none' }}
      aria-label={translate(field('reached_accounts'))}
    >
      {accounts.map((account) => (
        <Card
          key={account.ad_account_id}
          component="li"
          variant="outlined"
          data-testid={`account-card-${account.ad_account_id}`}
        >
          <CardContent sx={{ p: 1.5, '&:last-child': { pb: 1.5 } }}>
            <Stack spacing={0.5} alignItems="flex-start">
              <Typography variant="subtitle2" component="h3" sx={{ overflowWrap: 'anywhere' }}>
                {account.account_name}
              </Typography>
              <Typography variant="caption" color="text.secondary">
                {account.ad_account_id}
                {account.served ? '' : ` · ${translate('resources.meta_connections.not_served')}`}
              </Typography>
              <Stack direction="row" spacing={1} alignItems="center">
                <Typography variant="caption" color="text.secondary">
                  {translate(field('health'))}
                </Typography>
                {health ? <HealthChip health={health.get(account.ad_account_id)} /> : null}
              </Stack>
            </Stack>
          </CardContent>
        </Card>
      ))}
    </Stack>
  );
}

function ConnectionDetails() {
  const translate = useTranslate();
  const record = useRecordContext<MetaConnectionDetailDto>();
  const mayChange = mayChangeConnections(useSessionUser());
  const phone = useNarrowScreen();
  if (!record) return null;
  return (
    <Stack spacing={2}>
      <PageToolbar>
        {/* To the list, not back: after adding, back would be the emptied form. */}
        <Tooltip title={translate('resources.meta_connections.page')}>
          <IconButton component={Link} to="/meta_connections" aria-label={translate('resources.meta_connections.page')}>
            <ArrowBack />
          </IconButton>
        </Tooltip>
        <Typography variant="h6" component="h1" sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>
          {record.name}
        </Typography>
        <ToolbarSpacer />
        {mayChange ? <RemoveConnectionButton redirect="list" /> : null}
      </PageToolbar>
      <Card variant="outlined">
        <CardContent>
          <Stack direction="row" spacing={3} useFlexGap sx={{ flexWrap: 'wrap' }}>
            <Labeled label={field('name')}>
              <ConnectionName />
            </Labeled>
            <Labeled label={field('business')}>
              <ConnectionBusiness />
            </Labeled>
            <Labeled label={field('expires_at')}>
              <ConnectionExpiry />
            </Labeled>
            <Labeled label={field('status')}>
              <ConnectionStatus />
            </Labeled>
            <Labeled label={field('scopes')}>
              <ConnectionScopes />
            </Labeled>
          </Stack>
          <Stack spacing={1} sx={{ mt: 2 }}>
            <Problems />
            {record.checked_at ? (
              <Typography variant="caption" color="text.secondary">
                {translate('resources.meta_connections.checked_at', {
                  date: formatDateTime(record.checked_at),
                })}
              </Typography>
            ) : null}
          </Stack>
        </CardContent>
      </Card>
      <Typography variant="h6" component="h2">
        {translate(field('reached_accounts'))} ({record.reached_accounts.length})
      </Typography>
      {phone ? (
        <AccountCards accounts={record.reached_accounts} />
      ) : (
        <Card variant="outlined">
          <ArrayField source="reached_accounts">
            <Datagrid
              bulkActionButtons={false}
              rowClick={false}
              empty={
                <Typography color="text.secondary" sx={{ p: 2 }}>
                  {translate('resources.meta_connections.no_accounts')}
                </Typography>
              }
            >
              <AccountName label={field('account_name')} />
              <TextField source="ad_account_id" label={field('ad_account_id')} sortable={false} />
            </Datagrid>
          </ArrayField>
        </Card>
      )}
    </Stack>
  );
}

export default function ConnectionShow() {
  return (
    <ShowBase>
      <PageTitle title="resources.meta_connections.show_page" />
      <ConnectionDetails />
    </ShowBase>
  );
}
