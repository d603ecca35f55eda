/**
 * Meta business connections (docs/api.md, "Meta connections"): the system-user tokens the product
 * reads and changes Graph with, each reaching some ad accounts. The form's and the API's checks,
 * the answers' shapes, and who may add or remove one. A token goes in once and never comes back out.
 */
import { z } from 'zod';
import { MAX_NAME_LENGTH } from './constants';
import { healthProblemSchema } from './health';
import type { Permission } from './permissions';
import { hasNoControlCharacters, MESSAGES } from './validation';

/** Graph tokens are a few hundred characters; anything far longer is a paste gone wrong. */
export const MAX_TOKEN_LENGTH = 2048;
/** Turning ads off is a write: a token without it can read but never act. */
export const REQUIRED_SCOPE = 'ads_management';

export const CONNECTION_MESSAGES = {
  tokenOneWord: 'A token is one word: no spaces or line breaks',
  refused: (message: string) => `Meta refused this token: ${message}`,
  missingScope: `This token lacks the ${REQUIRED_SCOPE} permission, which turning ads off needs. Give the system user that permission and generate the token again.`,
  sameSystemUser: (name: string) =>
    `This system user is already connected as “${name}”. Remove that connection first to replace its token.`,
  unreachable: (message: string) => `Meta could not be asked about this token: ${message}`,
  builtIn:
    'The built-in connection is the server’s META_ACCESS_TOKEN: it is changed where the server is configured, not here.',
  adminsOnly: 'Only an admin may add or remove Meta connections.',
} as const;

/** Who sees the connections: whoever sees the ad accounts they reach. */
export const CONNECTION_READERS: Permission[] = ['read_rules', 'create_update_rules', 'add_edit_campaigns'];

/** Adding and removing connections: admins (superusers) only, on the server and in the app. */
export const mayChangeConnections = (user: { is_superuser?: boolean } | null | undefined): boolean =>
  Boolean(user?.is_superuser);

export const metaConnectionCreateSchema = z.object({
  name: z
    .string()
    .trim()
    .max(MAX_NAME_LENGTH, MESSAGES.max(MAX_NAME_LENGTH))
    .refine(hasNoControlCharacters, MESSAGES.controlCharacters)
    .optional()
    .describe('What the list calls it; empty: the business’s name as Meta says it, else the system user’s'),
  token: z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, MESSAGES.required)
    .max(MAX_TOKEN_LENGTH, MESSAGES.max(MAX_TOKEN_LENGTH))
    .refine((token) => !/\s/.test(token), CONNECTION_MESSAGES.tokenOneWord)
    .refine(hasNoControlCharacters, MESSAGES.controlCharacters)
    .describe(
      'A system user’s access token from Business Manager; checked with Meta, stored encrypted, never answered',
    ),
});
export type MetaConnectionInput = z.infer<typeof metaConnectionCreateSchema>;

const isoTime = z.string().describe('ISO 8601 date and time');
const named = z.object({ id: z.string(), name: z.string() });

export const CONNECTION_STATES = ['ok', 'warning', 'problem', 'unchecked'] as const;

export const metaConnectionSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  source: z
    .enum(['added', 'environment'])
    .describe('added in the app, or the server’s META_ACCESS_TOKEN (read-only here)'),
  system_user: named.nullable(),
  business: named.nullable(),
  token_type: z.string().nullable().describe('SYSTEM_USER, USER … as Meta’s debug_token says'),
  scopes: z.array(z.string()),
  expires_at: isoTime.nullable().describe('null: never expires'),
  ad_accounts_count: z.number().int().describe('Ad accounts the token reached when last listed'),
  status: z
    .enum(CONNECTION_STATES)
    .describe('problem: the token no longer works, its accounts’ runs are held; warning: it expires soon'),
  problems: z.array(healthProblemSchema),
  checked_at: isoTime.nullable(),
  created_at: isoTime,
});
export type MetaConnectionDto = z.infer<typeof metaConnectionSchema>;

export const connectionAdAccountSchema = z.object({
  ad_account_id: z.string(),
  account_name: z.string(),
  served: z
    .boolean()
    .describe('This connection is the one the product uses for the account (another may reach it first)'),
});
export type ConnectionAdAccountDto = z.infer<typeof connectionAdAccountSchema>;

export const metaConnectionDetailSchema = metaConnectionSchema.extend({
  reached_accounts: z.array(connectionAdAccountSchema),
});
export type MetaConnectionDetailDto = z.infer<typeof metaConnectionDetailSchema>;
