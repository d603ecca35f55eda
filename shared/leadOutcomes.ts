/**
 * CRM lead outcomes as the browser and the API agree on them (docs/api.md, "Lead outcomes (CRM)"):
 * the upload's limits, what an upload or a post answers, the folder's summary and its key.
 * A lead is only ever answered as counts: no e-mail, hash or lead id leaves the server.
 */
import { z } from 'zod';

/** The largest CSV upload: a 10 MB file holds well over 100,000 rows of e-mail, stage and time. */
export const CRM_UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
/** The most data rows one upload may hold (the header row not counted). */
export const CRM_UPLOAD_MAX_ROWS = 100_000;
/** The most outcomes one `POST /api/lead_outcomes/` may carry. */
export const CRM_POST_MAX_OUTCOMES = 1000;
/**
 * What a lead became (webinar registrations and attendances, CRM stages), the leads' e-mail hashes
 * and the campaigns' webinar dates are kept this long after they happened (the privacy policy says so).
 */
export const OUTCOME_RETENTION_DAYS = 400;
/** CRM outcomes older than the retention are refused. */
export const CRM_RETENTION_DAYS = OUTCOME_RETENTION_DAYS;
/** An answer lists the errors of this many refused rows at most (`refused` counts them all). */
export const CRM_MAX_ROW_ERRORS = 200;

export const crmResultSchema = z
  .object({
    added: z.number().int().describe('Outcomes recorded by this call'),
    already_known: z
      .number()
      .int()
      .describe(
        'Valid rows that added nothing: the same lead, stage and time is already recorded, or repeated earlier',
      ),
    refused: z.number().int().describe('Rows refused; `errors` says why'),
    errors: z
      .record(z.string(), z.array(z.string()))
      .describe(
        'Per refused row and field: `{"rows.7.stage": ["…"]}` (uploads, the file’s line) or `{"outcomes.2.time": ["…"]}`',
      ),
  })
  .describe('What an upload or a post of lead outcomes did');
export type CrmResult = z.infer<typeof crmResultSchema>;

export const outcomeKeyStatusSchema = z
  .object({
    hint: z.string().describe('The last four characters of the key'),
    created_at: z.string(),
    last_used_at: z.string().nullable(),
  })
  .describe('The folder’s key, without the key itself');
export type OutcomeKeyStatus = z.infer<typeof outcomeKeyStatusSchema>;

export const leadOutcomeSummarySchema = z.object({
  stages: z
    .array(z.object({ stage: z.string(), leads: z.number().int() }))
    .describe('Leads that reached each CRM stage, in the stages’ order'),
  last_recorded_at: z.string().nullable(),
  key: outcomeKeyStatusSchema.nullable().describe('null: the folder has no key'),
});
export type LeadOutcomeSummary = z.infer<typeof leadOutcomeSummarySchema>;

export const newOutcomeKeySchema = z.object({
  key: z.string().describe('The key: shown this once, stored only as its SHA-256'),
  status: outcomeKeyStatusSchema,
});
export type NewOutcomeKey = z.infer<typeof newOutcomeKeySchema>;
