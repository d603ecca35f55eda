/**
 * Shapes of the API's answers that both sides rely on: the server builds them, the browser app
 * reads them. One definition each, so a changed field is a type error on both sides at once.
 */

export interface GroupDto {
  id: number;
  name: string;
  group_access: { accesses: string[] };
}

/** The user object of SPEC §3 (`GET /api/user/me/`, the team list). */
export interface UserDto {
  id: number;
  first_name: string;
  last_name: string;
  is_superuser: boolean;
  is_staff: boolean;
  is_active: boolean;
  phone: string;
  email: string;
  account: number;
  groups: GroupDto[];
}

/** One audit-log entry (`GET /api/log/`). */
export interface LogEntryDto {
  id: number;
  timestamp: string;
  actor: string;
  folder_name: string | null;
  meta_ad_account_name: string | null;
  action: string;
  changes_text: string;
  rule_name: string | null;
  rule_id: number | null;
  folder_id: number | null;
}

export type TurnOffAction = 'turn_off_ad' | 'turn_off_campaign';

/** One rule-activity entry (`GET /api/rule_log/`). */
export interface RuleLogEntryDto {
  id: number;
  created_at: string;
  action: string;
  ad_id: string | null;
  object_type: string | null;
  reason: Record<string, string>;
  undone_at: string | null;
  /** The rule leaves this object alone (a user undid its turn-off) until the exemption is removed. */
  exempt: boolean;
  rule: {
    id: number;
    name: string;
    folder: { id: number; name: string; meta_ad_account: { account_name: string } };
  } | null;
}

/** What a rule would turn off right now and why (`GET /api/rules/{id}/preview/`). */
export interface PreviewResultDto {
  rule: { id: number; name: string };
  account: { ad_account_id: string; account_name: string };
  checked_at: string;
  count: number;
  results: {
    action: TurnOffAction;
    ad_id: string;
    campaign_id: string;
    task: string;
    reason: Record<string, string>;
  }[];
  exempt: string[];
  problems: string[];
}
