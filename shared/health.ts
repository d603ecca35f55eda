/**
 * The ad platform's health as the product last checked it (docs/api.md, "Judging late data and platform health"):
 * the Graph token and API version, each ad account's access, its lead tracking, and its measured lead lag. A rule
 * whose ad account has a problem does not act (its runs are held) until the problem is gone.
 */
import { z } from 'zod';

export const HEALTH_CHECKS = [
  'token',
  'token_expiry',
  'api_version',
  'access',
  'lead_tracking',
  'webinar_key',
] as const;
export type HealthCheck = (typeof HEALTH_CHECKS)[number];

/** The id the environment token's checks are kept under (they concern every account it serves). */
export const TOKEN_SCOPE = '*';
/** The id an added Meta connection's token checks are kept under (they concern the accounts it serves). */
export const connectionScope = (connectionId: number) => `connection:${connectionId}`;
/** A token's own checks: they concern the accounts its connection serves; the platform's others under '*', every account. */
export const TOKEN_CHECKS: readonly HealthCheck[] = ['token', 'token_expiry'];

const isoTime = z.string().describe('ISO 8601 date and time');

export const healthProblemSchema = z.object({
  check: z.enum(HEALTH_CHECKS),
  /** problem: runs are held; warning: shown, nothing held (a token or the API version expiring soon). */
  state: z.enum(['problem', 'warning']),
  detail: z.string(),
  since: isoTime,
});
export type HealthProblemDto = z.infer<typeof healthProblemSchema>;

export const leadLagSchema = z.object({
  lead_kind: z
    .enum(['website', 'all'])
    .describe('Measured on the website (pixel) leads, or on all leads when the account has no website lead'),
  days: z.number().int().describe('Settled days the measurement is made of'),
  late_share: z.number().describe("Share of a day's leads that arrived after the day ended (0–1)"),
  hours_to_90: z.number().int().describe("Hours after a day's end until 90 % of its leads were in"),
  suggested_lag_hours: z.number().int().describe('The lead-lag allowance suggested for rules of this account'),
});
export type LeadLagDto = z.infer<typeof leadLagSchema>;

export const accountHealthSchema = z.object({
  ad_account_id: z.string(),
  account_name: z.string(),
  /** ok, or problem while any problem (the token's included) holds its rules' runs. */
  state: z.enum(['ok', 'problem', 'unchecked']),
  problems: z.array(healthProblemSchema),
  checked_at: isoTime.nullable(),
  lead_lag: leadLagSchema.nullable(),
});
export type AccountHealthDto = z.infer<typeof accountHealthSchema>;

/** An added Meta connection's token: its problems concern the ad accounts it serves. */
export const connectionHealthSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  problems: z.array(healthProblemSchema),
  checked_at: isoTime.nullable(),
});
export type ConnectionHealthDto = z.infer<typeof connectionHealthSchema>;

export const platformHealthSchema = z.object({
  /** The environment's token (META_ACCESS_TOKEN) and the checks of the whole platform. */
  token: z.object({ problems: z.array(healthProblemSchema), checked_at: isoTime.nullable() }),
  connections: z.array(connectionHealthSchema),
  accounts: z.array(accountHealthSchema),
});
export type PlatformHealthDto = z.infer<typeof platformHealthSchema>;
