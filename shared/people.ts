/**
 * Team, groups, invitations and passwords: the rules and messages both the API and the screens
 * use beyond the docs/contract.md#validation ones in validation.ts.
 */
import { z } from 'zod';
import { NEW_GROUP_NAME } from './constants';
import { PERMISSIONS, isPermission } from './permissions';
import { hasNoControlCharacters, MESSAGES, accountSchema } from './validation';

export const GROUP_NAME_MAX = 150;

export const PEOPLE_MESSAGES = {
  emailTaken: 'A user with this e-mail already exists.',
  wrongOldPassword: 'Old password is not correct.',
  cannotDeactivateSelf: 'You cannot deactivate your own account.',
  groupNotFound: 'Group not found.',
  grantBeyondOwn: 'You cannot grant accesses you do not hold yourself.',
  superuserOnly: 'Only a superuser can change a superuser.',
  holdsMore: 'You cannot change a user who holds accesses you do not hold yourself.',
  groupBeyondOwn: 'You cannot change a group that holds accesses you do not hold yourself.',
  lastSuperuser: 'The last active superuser cannot be deactivated.',
  currentPasswordRequired: 'Enter your current password to change your e-mail address.',
  currentPasswordWrong: 'Current password is not correct.',
  emailChangeInvalid: 'This e-mail confirmation link is not valid.',
  emailChangeUsed: 'This e-mail confirmation link has already been used.',
  emailChangeExpired: 'This e-mail confirmation link has expired. Change the address again.',
  emailOfOthersSuperuserOnly: "Only a superuser can change another member's e-mail address.",
  noPendingEmailChange: 'No e-mail change is waiting for confirmation.',
  unknownPermission: (name: string) => `Unknown permission: ${name}`,
  inviteInvalid: 'This invitation link is not valid.',
  inviteUsed: 'This invitation has already been used.',
  inviteExpired: 'This invitation has expired. Ask for a new one.',
  resetInvalid: 'This password reset link is not valid.',
  resetUsed: 'This password reset link has already been used.',
  resetExpired: 'This password reset link has expired. Request a new one.',
} as const;

/** Invitation links work for a week, e-mail confirmation links for a day, password reset links for an hour. */
export const INVITE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
export const EMAIL_CHANGE_LIFETIME_MS = 24 * 60 * 60 * 1000;
export const RESET_LIFETIME_MS = 60 * 60 * 1000;

export const groupNameSchema = z
  .string({ error: MESSAGES.required })
  .trim()
  .min(1, MESSAGES.required)
  .max(GROUP_NAME_MAX, MESSAGES.max(GROUP_NAME_MAX))
  .refine(hasNoControlCharacters, MESSAGES.controlCharacters);

const accessesSchema = z
  .array(z.string(), { error: 'Expected a list of permission names' })
  .superRefine((names, ctx) => {
    for (const name of names) {
      if (!isPermission(name)) ctx.addIssue({ code: 'custom', message: PEOPLE_MESSAGES.unknownPermission(name) });
    }
  })
  .transform((names) => PERMISSIONS.filter((p) => names.includes(p)));

/** The most folders one group's rule accesses may name. */
export const RULE_FOLDERS_MAX = 1000;
/** The largest approval limit (a day's money in the account's currency) a group may hold. */
export const APPROVAL_LIMIT_MAX = 1_000_000_000;

export const RULE_SCOPE_MESSAGES = {
  noFolders: 'Choose at least one folder, or All folders.',
  tooManyFolders: `Choose at most ${RULE_FOLDERS_MAX} folders.`,
  limitNegative: 'The approval limit must be 0 or more.',
  limitTooLarge: `The approval limit must be at most ${APPROVAL_LIMIT_MAX.toLocaleString('en-US')}.`,
  folderGone: (ids: readonly number[]) =>
    `${ids.length === 1 ? 'Folder' : 'Folders'} ${ids.join(', ')} ${ids.length === 1 ? 'does' : 'do'} not exist or ${ids.length === 1 ? 'is' : 'are'} in the trash.`,
} as const;

/**
 * The folders where a group's rule accesses (create_update_rules, delete_rules) apply: folder ids,
 * or null for every folder. Sent as `rule_folders`.
 */
export const ruleFoldersSchema = z
  .array(z.number({ error: MESSAGES.integer }).int(MESSAGES.integer).positive(MESSAGES.integer), {
    error: 'Expected a list of folder ids, or null for every folder',
  })
  .min(1, RULE_SCOPE_MESSAGES.noFolders)
  .max(RULE_FOLDERS_MAX, RULE_SCOPE_MESSAGES.tooManyFolders)
  .transform((ids) => [...new Set(ids)].sort((a, b) => a - b))
  .nullable();

/** The most daily money one approval by a member may release, in the account's currency; null: no limit. */
export const approvalLimitSchema = z
  .number({ error: MESSAGES.numeric })
  .min(0, RULE_SCOPE_MESSAGES.limitNegative)
  .max(APPROVAL_LIMIT_MAX, RULE_SCOPE_MESSAGES.limitTooLarge)
  .nullable();

/**
 * POST /api/groups/: a new group is 'New group' with no accesses unless told otherwise; its rule
 * accesses apply in every folder and its approvals have no limit unless `rule_folders` and
 * `approval_limit` say otherwise.
 */
export const groupCreateSchema = z.object({
  name: groupNameSchema.default(NEW_GROUP_NAME),
  group_access: z.object({ accesses: accessesSchema.default([]) }).default({ accesses: [] }),
  rule_folders: ruleFoldersSchema.optional(),
  approval_limit: approvalLimitSchema.optional(),
});

/** PATCH /api/groups/{id}/: name, accesses, rule folders and/or approval limit. */
export const groupUpdateSchema = z.object({
  name: groupNameSchema.optional(),
  group_access: z.object({ accesses: accessesSchema }).optional(),
  rule_folders: ruleFoldersSchema.optional(),
  approval_limit: approvalLimitSchema.optional(),
});

/**
 * PATCH /api/user/{id}/: any of the account fields, and is_active; current_password only when
 * changing one's own e-mail address.
 */
export const userUpdateSchema = accountSchema.partial().extend({
  is_active: z.boolean({ error: 'Must be true or false' }).optional(),
  current_password: z.string({ error: 'Must be a string' }).optional(),
});

/** POST /api/user/confirm_email_change/: the token of the mailed link. */
export const emailChangeConfirmSchema = z.object({
  token: z.string({ error: MESSAGES.required }).min(1, MESSAGES.required),
});

/** An invitation sent and not yet used (GET /api/user_invite/): Team lists them with Resend and Cancel. */
export const pendingInvitationSchema = z.object({
  id: z.string().describe('Names the invitation (not its code: it cannot be used to join)'),
  email: z.string(),
  group: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  invited_by: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
  is_expired: z.boolean(),
});
export type PendingInvitationDto = z.infer<typeof pendingInvitationSchema>;

/**
 * The answer of POST /api/user_invite/send_invite_code/ (the new invitation) and of
 * POST /api/user_invite/{id}/resend/ (the invitation with its new expiry).
 */
export const invitationSentSchema = z.object({ detail: z.string(), invitation: pendingInvitationSchema });
export type InvitationSentDto = z.infer<typeof invitationSentSchema>;

/** The account's e-mail change waiting for confirmation (GET /api/user/{id}/email_change/). */
export const pendingEmailChangeSchema = z.object({
  new_email: z.string(),
  requested_by: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
});
export type PendingEmailChangeDto = z.infer<typeof pendingEmailChangeSchema>;
export const pendingEmailChangeAnswerSchema = z.object({ pending: pendingEmailChangeSchema.nullable() });

/** A changed password ends every other session: the answer carries this session's fresh tokens. */
export const passwordChangedSchema = z.object({ detail: z.string(), access: z.string(), refresh: z.string() });
export type PasswordChangedDto = z.infer<typeof passwordChangedSchema>;

/** Joining (POST /api/user_invite/) and confirming a new e-mail address answer the account's address. */
export const joinedSchema = z.object({ detail: z.string(), email: z.string() });
export type JoinedDto = z.infer<typeof joinedSchema>;
