/**
 * Shapes of the API's answers that both sides rely on: the server builds them (and serialises
 * them through the zod schemas here, which also document them in the OpenAPI document), the
 * browser app reads them. One definition each, so a changed field is a type error on both sides.
 */
import { z } from 'zod';

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

const isoTime = z.string().describe('ISO 8601 date and time');

export const groupSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  group_access: z.object({ accesses: z.array(z.string()) }),
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
  results: z.array(
    z.object({
      action: z.enum(['turn_off_ad', 'turn_off_campaign']),
      ad_id: z.string(),
      campaign_id: z.string(),
      task: z.string(),
      reason: reasonSchema,
    }),
  ),
  exempt: z.array(z.string()),
  problems: z.array(z.string()),
}) satisfies z.ZodType<PreviewResultDto>;

/** `POST /api/token/` and `/api/token/refresh/`: a SimpleJWT pair. */
export const tokenPairSchema = z.object({ access: z.string(), refresh: z.string() });
