import { sql } from 'drizzle-orm';
import { boolean, index, integer, numeric, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { instant, instantNow, serialId } from './columns';

export const users = pgTable(
  'users',
  {
    id: serialId(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    phone: text('phone').notNull().default(''),
    isSuperuser: boolean('is_superuser').notNull().default(false),
    isStaff: boolean('is_staff').notNull().default(false),
    isActive: boolean('is_active').notNull().default(true),
    dateJoined: instantNow('date_joined'),
    lastLogin: instant('last_login'),
    /**
     * Carried by every access token; raised by a password change or reset, a deactivation, an
     * e-mail change or a lost group access, which ends every session of the user at once.
     */
    sessionVersion: integer('session_version').notNull().default(0),
  },
  (t) => [uniqueIndex('users_email_unique').on(sql`lower(${t.email})`)],
);

export const groups = pgTable('groups', {
  id: serialId(),
  name: text('name').notNull(),
  accesses: text('accesses').array().notNull().default(sql`'{}'::text[]`),
  /**
   * The folders where the group's rule accesses (create_update_rules, delete_rules) apply; null:
   * every folder (server/people/ruleScope.ts).
   */
  ruleFolderIds: integer('rule_folder_ids').array(),
  /** The most daily money, in the account's currency, one approval by a member may release; null: no limit. */
  approvalLimit: numeric('approval_limit', { mode: 'number' }),
  createdAt: instantNow('created_at'),
});

export const userGroups = pgTable(
  'user_groups',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.groupId] }), index('user_groups_group_idx').on(t.groupId)],
);

/** One row per issued refresh token: rotation marks it used, so a replayed token is refused. */
/**
 * One sign-in: the family of refresh tokens rotated from it. It ends at logout, at the reuse of an
 * already used refresh token, or SESSION_MAX_DAYS after it started, whatever the rotations.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    startedAt: instantNow('started_at'),
    expiresAt: instant('expires_at').notNull(),
    revokedAt: instant('revoked_at'),
    /** logout | reuse | password | deactivated | email | access — why it ended. */
    revokedReason: text('revoked_reason'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    jti: text('jti').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sessionId: text('session_id').references(() => sessions.id, { onDelete: 'cascade' }),
    expiresAt: instant('expires_at').notNull(),
    usedAt: instant('used_at'),
    revokedAt: instant('revoked_at'),
    createdAt: instantNow('created_at'),
  },
  (t) => [index('refresh_tokens_user_idx').on(t.userId)],
);

/** Like reset tokens, the mailed invite code is stored only as its SHA-256 (column `code`). */
export const invitations = pgTable('invitations', {
  codeHash: text('code').primaryKey(),
  email: text('email').notNull(),
  groupId: integer('group_id').references(() => groups.id, { onDelete: 'set null' }),
  invitedBy: integer('invited_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: instantNow('created_at'),
  expiresAt: instant('expires_at').notNull(),
  usedAt: instant('used_at'),
});

/** Reset tokens are stored hashed: the database alone cannot be used to take over an account. */
export const passwordResets = pgTable('password_resets', {
  tokenHash: text('token_hash').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: instantNow('created_at'),
  expiresAt: instant('expires_at').notNull(),
  usedAt: instant('used_at'),
});

/**
 * Counters of the throttled public calls (sign-in, password reset, joining, refresh …) when no
 * REDIS_URL is set: shared by every API process, keyed by a hash of (limit, client address or
 * e-mail), never evicted while their window runs — junk keys cannot push a victim's counter out.
 */
export const rateLimitCounters = pgTable('rate_limit_counters', {
  key: text('key').primaryKey(),
  hits: integer('hits').notNull(),
  resetsAt: instant('resets_at').notNull(),
});

/**
 * Failed sign-ins per account (per e-mail, whether or not an account has it, so the answer never
 * tells which exist): after a few, each further attempt must wait a growing delay, capped so an
 * attacker can slow an account down but never lock it out for good. Cleared by a good sign-in.
 * `checking_until` reserves the account's one password check in flight; it runs out by itself
 * should the process checking die.
 */
export const loginFailures = pgTable('login_failures', {
  emailHash: text('email_hash').primaryKey(),
  failures: integer('failures').notNull().default(0),
  blockedUntil: instant('blocked_until'),
  lastFailureAt: instantNow('last_failure_at'),
  checkingUntil: instant('checking_until'),
});

/**
 * A requested e-mail change, not in effect until confirmed from the new address: the mailed token
 * is stored only as its SHA-256, works once, and expires (EMAIL_CHANGE_LIFETIME_MS).
 */
export const emailChanges = pgTable(
  'email_changes',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    newEmail: text('new_email').notNull(),
    requestedBy: integer('requested_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: instantNow('created_at'),
    expiresAt: instant('expires_at').notNull(),
    usedAt: instant('used_at'),
  },
  (t) => [index('email_changes_user_idx').on(t.userId)],
);
