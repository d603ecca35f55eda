/**
 * One Meta connection (/meta_connections/{id}/show): what its token is (business, system user,
 * permissions, expiry, status with what is wrong) and the ad accounts it reaches, each marked when
 * another connection added earlier is the one used for it. Admins may remove an added connection.
 */
import ArrowBack from '@mui/icons-material/ArrowBack';
import { Alert, Card, CardContent, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import { Link } from 'react-router-dom';
import {
  ArrayField,
  Datagrid,
  FunctionField,
  Labeled,
  ShowBase,
  TextField,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import {
  mayChangeConnections,
  type ConnectionAdAccountDto,
  type MetaConnectionDetailDto,
} from '../../../shared/metaConnections';
import { PageTitle } from '../../layout/pageTitle';
import { PageToolbar, ToolbarSpacer } from '../../layout/PageToolbar';
import { useSessionUser } from '../../providers/usePermissions';
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

function ConnectionDetails() {
  const translate = useTranslate();
  const record = useRecordContext<MetaConnectionDetailDto>();
  const mayChange = mayChangeConnections(useSessionUser());
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
