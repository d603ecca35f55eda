/**
 * Ad accounts as synced from the ad platform, with the state of their sync and their health:
 * read-only here (the sync writes them; GET /api/meta_ad_account/refresh/ asks for one now). Their
 * table, meta_ad_accounts, is the campaigns' too, so it stays in server/db/schema/adplatform.ts.
 */
import { sql } from 'drizzle-orm';
import { TOKEN_CHECKS } from '../health';
import { defineResource } from './spec';

const readOnly = { readOnly: true, list: true } as const;

export default defineResource({
  name: 'ad_accounts',
  table: 'meta_ad_accounts',
  path: 'meta_ad_account/',
  idField: 'ad_account_id',
  labels: { one: 'Ad account', many: 'Ad accounts' },
  about: 'The ad accounts the access token reads appear here after the ad platform’s first sync.',
  fields: {
    ad_account_id: { kind: 'text', label: 'Ad account ID', column: 'adAccountId', ...readOnly },
    account_name: { kind: 'text', label: 'Name', column: 'accountName', ...readOnly, sortable: true },
    timezone_name: { kind: 'text', label: 'Time zone', column: 'timezoneName', ...readOnly },
    currency: { kind: 'text', label: 'Currency', column: 'currency', ...readOnly },
    account_status: { kind: 'integer', label: 'Status on the platform', column: 'accountStatus', readOnly: true },
    synced_at: { kind: 'datetime', label: 'Account synced', column: 'syncedAt', ...readOnly, sortable: true },
    campaigns_synced_at: {
      kind: 'datetime',
      label: 'Campaigns synced',
      column: 'campaignsSyncedAt',
      ...readOnly,
      sortable: true,
    },
    campaign_sync_error: { kind: 'text', label: 'Last sync error', column: 'campaignSyncError', ...readOnly },
    health: { kind: 'text', label: 'Health', ...readOnly },
  },
  access: { read: ['read_rules', 'create_update_rules', 'add_edit_campaigns'] },
  search: ['account_name'],
  list: { ordering: 'account_name', perPage: 400, maxPerPage: 1000 },
  menu: { order: 40, icon: () => import('@mui/icons-material/AccountBalance') },
});

/**
 * The health the server works out per account, as GET /api/platform_health/ states it (docs/api.md):
 * problem while a check of the account, of the token of the connection serving it
 * (ad_account_connections; '*' the environment's) or of the whole platform has one, ok once the
 * account was checked, else unchecked. A pure call, so the browser's build drops it.
 */
export const computed = /* @__PURE__ */ (() => ({
  health: sql<string>`case
    when exists (select 1 from account_health h
      where h.state = 'problem' and (h.ad_account_id = meta_ad_accounts.ad_account_id
        or h.ad_account_id = coalesce((select s.health_scope from ad_account_connections s
          where s.ad_account_id = meta_ad_accounts.ad_account_id), '*')
        or (h.ad_account_id = '*' and h."check" <> all(${sql.param(TOKEN_CHECKS)}::text[])))) then 'problem'
    when exists (select 1 from account_health h where h.ad_account_id = meta_ad_accounts.ad_account_id) then 'ok'
    else 'unchecked' end`,
}))();
