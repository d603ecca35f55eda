/**
 * Shapes of the API's answers that both sides rely on: the server builds them (and serialises
 * them through the zod schemas here, which also document them in the OpenAPI document), the
 * browser app reads them. One definition each, so a changed field is a type error on both sides.
 */
import { z } from 'zod';
import {
  budgetChangeSchema,
  conditionValueSchema,
  moneyAtRiskSchema,
  type BudgetChangeDto,
  type ConditionValueDto,
  type MoneyAtRiskDto,
} from './budgetChanges';

export interface GroupDto {
  id: number;
  name: string;
  group_access: { accesses: string[] };
  /** The folders where the group's rule accesses apply; null: every folder. */
  rule_folders?: number[] | null;
  /** The most daily money (account currency) one approval by a member may release; null: no limit. */
  approval_limit?: number | null;
}

/** The user object of docs/contract.md#entities (`GET /api/user/me/`, the team list). */
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
  /** The account's delivering ads, the total the count is a part of. */
  delivering: number;
  results: {
    action: TurnOffAction;
    ad_id: string;
    /** The ad's name (the campaign's, for a campaign turn-off). */
    ad_name: string;
    campaign_id: string;
    campaign_name: string;
    task: string;
    reason: Record<string, string>;
  }[];
  exempt: string[];
  problems: string[];
  /** A rule with a budget action: each change it would make, and the money they add or remove. */
  budget_changes?: BudgetChangeDto[];
  money?: MoneyAtRiskDto | null;
  /** A rule with conditions: each object's conditions as judged (the ones it would act on first). */
  conditions?: {
    object_id: string;
    object_type: 'ad' | 'adset' | 'campaign';
    name: string;
    result: boolean | null;
    values: ConditionValueDto[];
  }[];
}

/** What a task concluded about one object in one run (server/judgement/evaluate.ts). */
export type RunVerdict =
  | 'acted'
  | 'under_threshold'
  | 'already_off'
  | 'campaign_off'
  | 'exempt'
  | 'no_data'
  | 'held'
  | 'would_act'
  | 'too_early'
  | 'lag_allowance'
  | 'cooling_down'
  | 'revived'
  | 'waiting_for_event'
  | 'no_outcome_data';

export type RunTrigger = 'schedule' | 'run_now' | 'catch_up' | 'approval' | 'push' | 'recheck';
export type RunOutcome =
  | 'done'
  | 'held'
  | 'failed'
  | 'partly_failed'
  | 'notify_only'
  | 'skipped'
  | 'running'
  | 'unhealthy';

/** One object a run looked at: the metrics it read (null: no data) and each active task's verdict. */
export interface RunObjectDto {
  type: 'ad' | 'adset' | 'campaign';
  id: string;
  name: string;
  campaign_id: string;
  /** The campaign's name when the run read it ('' in runs recorded before names were kept). */
  campaign_name: string;
  /** What crossed the threshold when a task acted (or would have): 'CPL $61.20 > $50.00'; else null. */
  crossed: string | null;
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
  /** A rule with conditions: each condition's value on this object. */
  conditions?: ConditionValueDto[];
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
  limits?: {
    affected: number;
    delivering: number;
    actions: number;
    max_share: number;
    max_actions: number;
    /** Daily budget the run adds, with the folder's raises of the last 24 hours, and the folder's limit. */
    added_daily?: number;
    max_daily_increase?: number | null;
  } | null;
  /** Budget changes the run made, would make (held, notify only) or was cut from. */
  budget_changes?: BudgetChangeDto[];
  money?: MoneyAtRiskDto | null;
}

const isoTime = z.string().describe('ISO 8601 date and time');

export const groupSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  group_access: z.object({ accesses: z.array(z.string()) }),
  rule_folders: z
    .array(z.number().int())
    .nullable()
    .optional()
    .describe('The folders where the group’s rule accesses apply; null: every folder'),
  approval_limit: z
    .number()
    .nullable()
    .optional()
    .describe('The most daily money (account currency) one approval by a member may release; null: no limit'),
}) satisfies z.ZodType<GroupDto>;

export const userSchema = z.object({
  id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  is_superuser: z.boolean(),
  is_staff: z.boolean(),
  is_active: z.boolean(),
  phone: z.string(),
  email: z.string(),
  account: z.number().int(),
  groups: z.array(groupSchema),
}) satisfies z.ZodType<UserDto>;

export const logEntrySchema = z.object({
  id: z.number().int(),
  timestamp: isoTime,
  actor: z.string(),
  folder_name: z.string().nullable(),
  meta_ad_account_name: z.string().nullable(),
  action: z.string(),
  changes_text: z.string(),
  rule_name: z.string().nullable(),
  rule_id: z.number().int().nullable(),
  folder_id: z.number().int().nullable(),
}) satisfies z.ZodType<LogEntryDto>;

const reasonSchema = z.record(z.string(), z.string()).describe('Labelled reasons: `{"CPL": "$52 > $50"}`');

export const ruleLogEntrySchema = z.object({
  id: z.number().int(),
  created_at: isoTime,
  action: z.string(),
  ad_id: z.string().nullable(),
  object_type: z.string().nullable(),
  reason: reasonSchema,
  undone_at: isoTime.nullable(),
  exempt: z.boolean(),
  run_id: z.number().int().nullable().optional().describe('The run that wrote the entry (GET /api/rule_runs/{id}/)'),
  decision: z
    .enum(['pending', 'approved', 'dismissed'])
    .nullable()
    .optional()
    .describe('A held run entry (run_held): whether someone approved or dismissed it'),
  rule: z
    .object({
      id: z.number().int(),
      name: z.string(),
      folder: z.object({
        id: z.number().int(),
        name: z.string(),
        meta_ad_account: z.object({ account_name: z.string() }),
      }),
    })
    .nullable(),
}) satisfies z.ZodType<RuleLogEntryDto>;

export const previewResultSchema = z.object({
  rule: z.object({ id: z.number().int(), name: z.string() }),
  account: z.object({ ad_account_id: z.string(), account_name: z.string() }),
  checked_at: isoTime,
  count: z.number().int(),
  delivering: z.number().int().describe('The account’s delivering ads: the count is a part of them'),
  results: z.array(
    z.object({
      action: z.enum(['turn_off_ad', 'turn_off_campaign']),
      ad_id: z.string(),
      ad_name: z.string().describe('The ad’s name (the campaign’s, for a campaign turn-off)'),
      campaign_id: z.string(),
      campaign_name: z.string(),
      task: z.string(),
      reason: reasonSchema,
    }),
  ),
  exempt: z.array(z.string()),
  problems: z.array(z.string()),
  budget_changes: z.array(budgetChangeSchema).optional(),
  money: moneyAtRiskSchema.nullable().optional(),
  conditions: z
    .array(
      z.object({
        object_id: z.string(),
        object_type: z.enum(['ad', 'adset', 'campaign']),
        name: z.string(),
        result: z.boolean().nullable(),
        values: z.array(conditionValueSchema),
      }),
    )
    .optional(),
}) satisfies z.ZodType<PreviewResultDto>;

/** `POST /api/token/` and `/api/token/refresh/`: a SimpleJWT pair. */
export const tokenPairSchema = z.object({ access: z.string(), refresh: z.string() });

const runVerdictSchema = z.enum([
  'acted',
  'under_threshold',
  'already_off',
  'campaign_off',
  'exempt',
  'no_data',
  'held',
  'would_act',
  'too_early',
  'lag_allowance',
  'cooling_down',
  'revived',
  'waiting_for_event',
  'no_outcome_data',
]) satisfies z.ZodType<RunVerdict>;

export const runObjectSchema = z.object({
  type: z.enum(['ad', 'adset', 'campaign']),
  id: z.string(),
  name: z.string(),
  campaign_id: z.string(),
  campaign_name: z.string().describe("The campaign's name when the run read it ('' in older runs)"),
  crossed: z
    .string()
    .nullable()
    .describe("What crossed the threshold when a task acted or would have ('CPL $61.20 > $50.00'); else null"),
  metrics: z
    .object({
      spend: z.number(),
      leads: z.number(),
      website_leads: z.number(),
      link_clicks: z.number(),
      clicks: z.number().nullable(),
      impressions: z.number().nullable(),
      ctr: z.number().nullable(),
      cpc: z.number().nullable(),
    })
    .nullable()
    .describe('What the run read; null: the platform reported no usable metrics (no data)'),
  verdicts: z.record(z.string(), runVerdictSchema).describe('Each active task: what it concluded'),
  conditions: z.array(conditionValueSchema).optional().describe("A rule with conditions: each condition's value"),
}) satisfies z.ZodType<RunObjectDto>;

/** A rule's run; `objects`, `planned`, `problems` and `limits` only in the single-run answer. */
export const ruleRunSchema = z.object({
  id: z.number().int(),
  rule_id: z.number().int(),
  slot: isoTime,
  started_at: isoTime,
  finished_at: isoTime.nullable(),
  trigger: z.enum(['schedule', 'run_now', 'catch_up', 'approval', 'push', 'recheck']).nullable(),
  outcome: z
    .enum(['done', 'held', 'failed', 'partly_failed', 'notify_only', 'skipped', 'running', 'unhealthy'])
    .nullable(),
  note: z.string().nullable(),
  error: z.string().nullable(),
  counts: z.record(z.string(), z.number()),
  decision: z.enum(['pending', 'approved', 'dismissed']).nullable(),
  decided_by: z.string().nullable(),
  decided_at: isoTime.nullable(),
  objects: z.array(runObjectSchema).optional(),
  planned: z
    .array(
      z.object({
        action: z.enum(['turn_off_ad', 'turn_off_campaign']),
        ad_id: z.string(),
        campaign_id: z.string(),
        task: z.string(),
        reason: reasonSchema,
      }),
    )
    .optional(),
  problems: z.array(z.string()).optional(),
  limits: z
    .object({
      affected: z.number(),
      delivering: z.number(),
      actions: z.number(),
      max_share: z.number(),
      max_actions: z.number(),
      added_daily: z.number().optional(),
      max_daily_increase: z.number().nullable().optional(),
    })
    .nullable()
    .optional(),
  budget_changes: z.array(budgetChangeSchema).optional(),
  money: moneyAtRiskSchema.nullable().optional(),
}) satisfies z.ZodType<RuleRunDto>;
