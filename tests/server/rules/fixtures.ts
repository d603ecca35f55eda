/** Shared set-up of the folders/rules/log API tests: ad accounts, folders and quick calls. */
import { expect } from 'vitest';
import type { Permission } from '../../../shared/permissions';
import type { TestApi } from '../../support/api';

/** Every permission of the folders, rules, trash and log screens. */
export const RULES_ADMIN: Permission[] = ['read_rules', 'create_update_rules', 'delete_rules', 'view_logs'];

export interface Account {
  adAccountId: string;
  accountName: string;
  timezoneName: string;
}

let accountCounter = 0;

/** Ad accounts are the ad-platform sync's job; these tests insert them as that sync would. */
export async function insertAccount(api: TestApi, overrides: Partial<Account> = {}): Promise<Account> {
  accountCounter += 1;
  const account = {
    adAccountId: `act_${100000 + accountCounter}`,
    accountName: `Account ${accountCounter}`,
    timezoneName: 'America/New_York',
    ...overrides,
  };
  // Plain SQL naming only these columns: the ad-platform area may add columns of its own.
  await api.dbh.sql.query(
    'insert into meta_ad_accounts (ad_account_id, account_name, timezone_name) values ($1, $2, $3)',
    [account.adAccountId, account.accountName, account.timezoneName],
  );
  return account;
}

export function folderPayload(account: Account, overrides: Record<string, unknown> = {}) {
  return {
    client_type: 'EDM',
    plan: 'solo',
    meta_ad_account_id: account.adAccountId,
    name: 'Acme Advisors',
    extension: { external_credentials: { demio: null } },
    ...overrides,
  };
}

export async function createFolder(
  api: TestApi,
  token: string,
  account: Account,
  overrides: Record<string, unknown> = {},
) {
  const response = await api.request(token, {
    method: 'POST',
    url: '/api/general_page/',
    payload: folderPayload(account, overrides),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as {
    id: number;
    name: string;
    rules: { id: number; name: string; is_active: boolean }[];
    rules_count: number;
    active_rules_count: number;
    extension: { external_credentials: { demio: { api_key: string; api_secret: string } | null } };
  };
}

export async function call(
  api: TestApi,
  token: string,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  return api.request(token, {
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

/** A payload that makes a default rule valid and active-ready: one task on with a value. */
export const cplTaskOn = { rule_task: [{ name: 'trigger_cpl', values: { cpl: '50' }, is_active: true }] };
