/**
 * Client folders (docs/contract.md#entities): the payload of the Create/Update Folder dialogs, its validation
 * (docs/contract.md#validation: Type, Plan, Ad account name and Folder name required, 'This field is required'),
 * and the shapes the general view and the trash read.
 */
import { healthProblemSchema, type HealthProblemDto } from './health';
import { ruleConflictSchema, type RuleConflictDto } from './judging';
import { z } from 'zod';
import { CLIENT_TYPES, PLANS } from './constants';
import { hasNoControlCharacters, MESSAGES } from './validation';
import { budgetLimitsPatchSchema, type BudgetLimits } from './budgetLimits';
import { budgetLimitsAnswerSchema } from './rules';
import { alertEmailsSchema } from './alertEmails';

export interface DemioCredentials {
  api_key: string;
  api_secret: string;
}

export interface FolderPayload {
  client_type: string;
  plan: string;
  meta_ad_account_id: string;
  name: string;
  extension: { external_credentials: { demio: DemioCredentials | null } };
  /** Any of the limits, merged over the stored ones (the defaults for a new folder). */
  budget_limits?: Partial<BudgetLimits>;
  /** Who receives the mail alerts of the folder's rules (shared/alertEmails.ts); empty: the default recipients. */
  alert_emails?: string[];
}

export interface MetaAdAccountRef {
  ad_account_id: string;
  account_name: string;
  timezone_name: string;
}

export interface FolderRuleDto {
  id: number;
  name: string;
  is_active: boolean;
  /** Scheduled runs record and mail what they would do and change nothing. */
  notify_only: boolean;
  is_deleted: boolean;
  deleted_at: string | null;
  folder: number;
  /** The general view's flag: how this active rule works against others of its folder. */
  conflicts?: string[];
  /** The general view's flag: the rules of other folders on the same ad account this active rule works against. */
  other_folder_conflicts?: RuleConflictDto[];
}

export interface FolderDto {
  id: number;
  name: string;
  client_type: string;
  plan: string;
  meta_ad_account: MetaAdAccountRef | null;
  /** Masked: the stored secrets never leave the server. */
  extension: {
    external_credentials: { demio: DemioCredentials | null };
    /** Set when the stored credentials cannot be read with the server's key: they must be entered again. */
    credentials_error?: string;
  };
  /** The folder's budget limits, whole (the defaults for those never set). */
  budget_limits: BudgetLimits;
  /** Who receives the mail alerts of the folder's rules; empty: the default recipients (ALERT_EMAILS). */
  alert_emails?: string[];
  rules: FolderRuleDto[];
  rules_count: number;
  active_rules_count: number;
  /** The ad account's health problems and warnings (its rules' runs are held while a problem lasts). */
  health?: HealthProblemDto[];
  is_deleted: boolean;
  deleted_at: string | null;
  created_at: string;
}

const required = MESSAGES.folderRequired;
const requiredText = z
  .string({ error: required })
  .trim()
  .min(1, required)
  .refine(hasNoControlCharacters, MESSAGES.controlCharacters);
const choice = (values: readonly string[]) =>
  z
    .string({ error: required })
    .trim()
    .superRefine((v, ctx) => {
      if (!v) ctx.addIssue({ code: 'custom', message: required });
      else if (!values.includes(v)) ctx.addIssue({ code: 'custom', message: 'Select a value from the list' });
    });

const credential = z.string({ error: 'Field must be text' }).trim().max(500, MESSAGES.max(500)).optional().default('');

/** Both empty → null (docs/contract.md#entities); one without the other is an error on the missing one. */
export const demioSchema = z
  .object({ api_key: credential, api_secret: credential })
  .nullish()
  .transform((value, ctx) => {
    if (!value || (!value.api_key && !value.api_secret)) return null;
    for (const key of ['api_key', 'api_secret'] as const) {
      if (!value[key]) ctx.addIssue({ code: 'custom', path: [key], message: MESSAGES.required });
    }
    return value as DemioCredentials;
  });

const extensionSchema = z
  .object({ external_credentials: z.object({ demio: demioSchema }).nullish() })
  .nullish()
  .transform((ext) => ({ external_credentials: { demio: ext?.external_credentials?.demio ?? null } }));

export const folderFields = {
  client_type: choice(CLIENT_TYPES),
  plan: choice(PLANS.map((p) => p.value)),
  meta_ad_account_id: requiredText,
  name: requiredText.pipe(z.string().max(200, MESSAGES.max(200))),
  extension: extensionSchema,
};

/** Any of the budget limits, merged over the stored ones; the merged whole is checked again (7-day ≥ 24-hour growth). */
const budgetLimitsField = budgetLimitsPatchSchema.optional();

export const folderCreateSchema = z.object({
  ...folderFields,
  budget_limits: budgetLimitsField,
  alert_emails: alertEmailsSchema,
});
/** PATCH: any subset of the create fields, each with the same rules when present. */
export const folderUpdateSchema = z.object({
  client_type: folderFields.client_type.optional(),
  plan: folderFields.plan.optional(),
  meta_ad_account_id: folderFields.meta_ad_account_id.optional(),
  name: folderFields.name.optional(),
  extension: extensionSchema.optional(),
  budget_limits: budgetLimitsField,
  alert_emails: alertEmailsSchema.optional(),
});

const isoTime = z.string().describe('ISO 8601 date and time');

export const metaAdAccountRefSchema = z.object({
  ad_account_id: z.string(),
  account_name: z.string(),
  timezone_name: z.string(),
}) satisfies z.ZodType<MetaAdAccountRef>;

/** A folder as the general view and the trash read it; credentials are masked. */
export const folderSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  client_type: z.string(),
  plan: z.string(),
  meta_ad_account: metaAdAccountRefSchema.nullable(),
  extension: z.object({
    external_credentials: z.object({
      demio: z.object({ api_key: z.string(), api_secret: z.string() }).nullable().describe('Masked'),
    }),
    credentials_error: z
      .string()
      .optional()
      .describe("Set when the stored credentials cannot be read with the server's key"),
  }),
  budget_limits: budgetLimitsAnswerSchema.describe('The budget limits, whole (the defaults for those never set)'),
  alert_emails: z
    .array(z.string())
    .optional()
    .describe("Who receives the mail alerts of the folder's rules; empty: the default recipients (ALERT_EMAILS)"),
  rules: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      is_active: z.boolean(),
      notify_only: z.boolean(),
      is_deleted: z.boolean(),
      deleted_at: isoTime.nullable(),
      folder: z.number().int(),
      conflicts: z.array(z.string()).optional().describe('How this active rule works against others of its folder'),
      other_folder_conflicts: z
        .array(ruleConflictSchema)
        .optional()
        .describe('How this active rule works against rules of other folders on the same ad account'),
    }),
  ),
  rules_count: z.number().int(),
  active_rules_count: z.number().int(),
  health: z.array(healthProblemSchema).optional().describe("The ad account's health problems and warnings"),
  is_deleted: z.boolean(),
  deleted_at: isoTime.nullable(),
  created_at: isoTime,
}) satisfies z.ZodType<FolderDto>;

/** A folder of the trash view: trashed itself (with all its rules) or holding trashed rules (those only). */
export const trashFolderSchema = folderSchema.extend({ trashed_at: isoTime.nullable() });

export const planLabel = (plan: string): string => PLANS.find((p) => p.value === plan)?.label ?? plan;
