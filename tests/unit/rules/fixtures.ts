/** Folders, rules and pages as the API answers them, for the rules screens' tests. */
import type { FolderDto, FolderRuleDto } from '../../../src/domain/folders';
import { defaultFilters, defaultTasks, type RuleDto } from '../../../src/domain/rules';
import { defaultAlertDay, defaultWeek } from '../../../src/domain/schedule';

export function ruleRow(id: number, folder: number, overrides: Partial<FolderRuleDto> = {}): FolderRuleDto {
  return {
    id,
    name: `Rule ${id}`,
    is_active: false,
    notify_only: false,
    is_deleted: false,
    deleted_at: null,
    folder,
    ...overrides,
  };
}

export function folder(id: number, overrides: Partial<FolderDto> = {}): FolderDto {
  const rules = overrides.rules ?? [ruleRow(id * 100, id)];
  return {
    id,
    name: `Client ${id}`,
    client_type: 'EDM',
    plan: 'solo',
    meta_ad_account: { ad_account_id: `act_${id}`, account_name: `Account ${id}`, timezone_name: 'America/New_York' },
    extension: { external_credentials: { demio: null } },
    rules,
    rules_count: rules.filter((r) => !r.is_deleted).length,
    active_rules_count: rules.filter((r) => r.is_active && !r.is_deleted).length,
    is_deleted: false,
    deleted_at: null,
    created_at: '2025-01-01T00:00:00Z',
    ...overrides,
  };
}

/** `{count, next, results}` for `limit`/`offset` over `all`. */
export function pageOf<T>(all: T[], url: URL) {
  const limit = Number(url.searchParams.get('limit') ?? 20);
  const offset = Number(url.searchParams.get('offset') ?? 0);
  const next =
    offset + limit < all.length ? `${url.origin}${url.pathname}?limit=${limit}&offset=${offset + limit}` : null;
  return { count: all.length, next, previous: offset > 0 ? 'prev' : null, results: all.slice(offset, offset + limit) };
}

export function rule(id: number, overrides: Partial<RuleDto> = {}): RuleDto {
  return {
    id,
    name: 'New rule',
    is_active: false,
    notify_only: false,
    is_deleted: false,
    folder: {
      id: 1,
      name: 'Client 1',
      client_type: 'EDM',
      plan: 'solo',
      is_deleted: false,
      meta_ad_account: { ad_account_id: 'act_1', account_name: 'Account 1', timezone_name: 'America/New_York' },
    },
    rule_filter: defaultFilters().map((f, i) => ({ ...f, id: i + 1 })),
    rule_task: defaultTasks().map((t, i) => ({ ...t, id: i + 10 })),
    rule_schedule: { schedule: defaultWeek(), timezone: 'America/New_York' },
    rule_alert_schedule: { schedule: defaultAlertDay() },
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
    ...overrides,
  };
}

export const timezones = [
  { title: '(UTC-05:00) America/New_York', value: 'America/New_York' },
  { title: '(UTC+00:00) UTC', value: 'UTC' },
];
