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
  /** The run that wrote the entry (`GET /api/rule_runs/{id}/`); null for entries older than run records. */
  run_id?: number | null;
  /** A held run's entry (action run_held): pending until someone approves or dismisses it. */
  decision?: 'pending' | 'approved' | 'dismissed' | null;
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

/** What a task concluded about one object in one run (server/engine/evaluate.ts). */
export type RunVerdict =
  | 'acted'
  | 'under_threshold'
  | 'already_off'
  | 'campaign_off'
  | 'exempt'
  | 'no_data'
  | 'held'
  | 'would_act';

export type RunTrigger = 'schedule' | 'run_now' | 'catch_up' | 'approval';
export type RunOutcome = 'done' | 'held' | 'failed' | 'partly_failed' | 'notify_only' | 'skipped' | 'running';

/** One object a run looked at: the metrics it read (null: no data) and each active task's verdict. */
export interface RunObjectDto {
  type: 'ad' | 'campaign';
  id: string;
  name: string;
  campaign_id: string;
  metrics: {
    spend: number;
    leads: number;
    website_leads: number;
    link_clicks: number;
    clicks: number | null;
    impressions: number | null;
    ctr: number | null;
    cpc: number | null;
  } | null;
  verdicts: Record<string, RunVerdict>;
}

/** A rule's run (`GET /api/rule/{id}/runs/`, `GET /api/rule_runs/{id}/`). */
export interface RuleRunDto {
  id: number;
  rule_id: number;
  slot: string;
  started_at: string;
  finished_at: string | null;
  trigger: RunTrigger | null;
  outcome: RunOutcome | null;
  note: string | null;
  error: string | null;
  counts: Record<string, number>;
  /** A held run: pending, approved or dismissed; null for other runs. */
  decision: 'pending' | 'approved' | 'dismissed' | null;
  decided_by: string | null;
  decided_at: string | null;
  /** Only in the single-run answer. */
  objects?: RunObjectDto[];
  planned?: {
    action: TurnOffAction;
    ad_id: string;
    campaign_id: string;
    task: string;
    reason: Record<string, string>;
  }[];
  problems?: string[];
  limits?: { affected: number; delivering: number; actions: number; max_share: number; max_actions: number } | null;
}
