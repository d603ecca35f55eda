/**
 * Meta connections (/meta_connections): each business connection with its business, expiry,
 * permissions, how many ad accounts it reaches and whether its token works; a row opens the
 * connection with its ad accounts. Admins add and remove connections; the built-in one (the server's
 * META_ACCESS_TOKEN) is shown read-only. On a phone the business and status go under the name.
 */
import Add from '@mui/icons-material/Add';
import { Card, Stack, useMediaQuery, type Theme } from '@mui/material';
import { CreateButton, Datagrid, ListBase, NumberField, Pagination, useTranslate } from 'react-admin';
import { ListEmpty, ListErrors, listErrorsQueryOptions, UnlessListFailed } from '../../layout/list';
import { PageTitle } from '../../layout/pageTitle';
import { PageToolbar, ToolbarSpacer } from '../../layout/PageToolbar';
import { useNarrowScreen } from '../../layout/RowActions';
import { mayChangeConnections } from '../../../shared/metaConnections';
import { useSessionUser } from '../../providers/usePermissions';
import {
  ConnectionBusiness,
  ConnectionExpiry,
  ConnectionName,
  ConnectionScopes,
  ConnectionStatus,
} from './ConnectionFields';
import { RemoveConnectionButton } from './RemoveConnectionButton';

const field = (name: string) => `resources.meta_connections.fields.${name}`;

/** Name, business and status in one cell: a phone has room for one column and the count. */
function ConnectionSummary(_props: { label?: string }) {
  return (
    <Stack spacing={0.5} alignItems="flex-start">
      <ConnectionName />
      <ConnectionBusiness />
      <ConnectionStatus />
    </Stack>
  );
}

export default function ConnectionList() {
  const translate = useTranslate();
  const phone = useNarrowScreen();
  const mayChange = mayChangeConnections(useSessionUser());
  // Below md react-admin draws CreateButton as a floating button: the toolbar would stand empty.
  const floatingCreate = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'));
  const add = mayChange ? (
    <CreateButton label="resources.meta_connections.add" icon={<Add />} variant="contained" />
  ) : null;
  return (
    <ListBase
      resource="meta_connections"
      perPage={25}
      sort={{ field: 'id', order: 'ASC' }}
      queryOptions={listErrorsQueryOptions}
      disableSyncWithLocation
    >
      <PageTitle title="resources.meta_connections.page" />
      {floatingCreate ? (
        add
      ) : (
        <PageToolbar>
          <ToolbarSpacer />
          {add}
        </PageToolbar>
      )}
      <ListErrors />
      <UnlessListFailed>
        <Card variant="outlined">
          <Datagrid
            bulkActionButtons={false}
            rowClick="show"
            empty={
              <ListEmpty
                message="app.list.none_yet"
                messageArgs={{ items: translate('resources.meta_connections.page').toLowerCase() }}
                detail={translate('resources.meta_connections.about')}
              />
            }
          >
            {phone ? <ConnectionSummary label={field('name')} /> : <ConnectionName label={field('name')} />}
            {phone ? null : <ConnectionBusiness label={field('business')} />}
            {phone ? null : <ConnectionExpiry label={field('expires_at')} />}
            {phone ? null : <ConnectionScopes label={field('scopes')} />}
            <NumberField source="ad_accounts_count" label={field('ad_accounts_count')} sortable={false} />
            {phone ? null : <ConnectionStatus label={field('status')} />}
            {mayChange && !phone ? <RemoveConnectionButton label={field('actions')} /> : null}
          </Datagrid>
        </Card>
        <Pagination rowsPerPageOptions={[25, 50, 100]} />
      </UnlessListFailed>
    </ListBase>
  );
}
