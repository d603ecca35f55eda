/**
 * The team: listing users, changing their account fields, activity, group and own password, each
 * change audited. `createTeamStore` holds the operations the user routes call; the e-mail checks and
 * `updateUser` are shared with the invitation and account-change stores.
 */
import { and, asc, count, eq, getTableColumns, sql } from 'drizzle-orm';
import { checkOwnPassword } from '../auth/passwordCheck';
import { hashPassword } from '../auth/passwords';
import type { Database } from '../db/client';
import { groups, userGroups, users } from '../db/schema/index';
import { actorName, describeChanges, recordAudit, type AuditActor } from '../audit/log';
import { orderingTerms, sliceWithTotal, totalOf, type PageRequest, type Slice } from '../http/pagination';
import { PEOPLE_MESSAGES } from '../../shared/people';
import { ApiError, notFound, ValidationError } from '../http/errors';
import { assertMayGrant, assertMayManageUser, lostAccesses } from './access';
import { assertMayGrantScope } from './ruleScope';
import { withdrawPendingEmailChanges } from './pendingEmailChanges';
import type { PeopleDeps } from './deps';
import { findGroup } from './groups';
import {
  auditActorOf,
  findUserByEmail,
  findUserById,
  loadAuthUser,
  loadUserDto,
  permissionsOf,
  toUserDtos,
  type AuthUser,
  type UserDto,
  type UserRow,
} from './users';
import { searchAny } from '../http/search';

const USER_ORDERING = {
  id: users.id,
  first_name: users.firstName,
  last_name: users.lastName,
  email: users.email,
  is_active: users.isActive,
  date_joined: users.dateJoined,
};

const displayName = (user: UserRow) => actorName(auditActorOf(user));

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

const emailTaken = () => new ValidationError({ email: [PEOPLE_MESSAGES.emailTaken] });

export async function assertEmailFree(db: Database, email: string, exceptUserId?: number): Promise<void> {
  const existing = await findUserByEmail(db, email);
  if (existing && existing.id !== exceptUserId) throw emailTaken();
}

/** PostgreSQL's unique_violation. */
const isUniqueViolation = (error: unknown): boolean => {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
};

/**
 * Runs a write that gives a user an e-mail address. assertEmailFree answers the usual case before
 * it; a request that raced another for the same address fails at the unique index and gets the
 * same answer.
 */
export async function catchingEmailRace<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
}

/** The fields applied at once; the e-mail address changes only through emailChanges.ts. */
export interface AccountChange {
  first_name?: string;
  last_name?: string;
  phone?: string | null;
  is_active?: boolean;
}

/**
 * Refuses to deactivate the last active superuser. The active superusers are locked (in id order,
 * so two such requests cannot deadlock) until the transaction ends: two superusers deactivating
 * each other at once cannot both succeed.
 */
async function assertAnotherActiveSuperuser(tx: Database, userId: number): Promise<void> {
  const active = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.isSuperuser, true), eq(users.isActive, true)))
    .orderBy(asc(users.id))
    .for('update');
  if (!active.some((u) => u.id !== userId)) throw new ApiError(409, { detail: PEOPLE_MESSAGES.lastSuperuser });
}

export async function updateUser(
  db: Database,
  actor: AuditActor,
  before: UserRow,
  change: AccountChange,
): Promise<UserDto> {
  const values: Partial<typeof users.$inferInsert> = {
    ...(change.first_name !== undefined && { firstName: change.first_name }),
    ...(change.last_name !== undefined && { lastName: change.last_name }),
    ...(change.phone !== undefined && { phone: change.phone ?? '' }),
    ...(change.is_active !== undefined && { isActive: change.is_active }),
  };
  await db.transaction(async (tx) => {
    if (!Object.keys(values).length) return;
    if (values.isActive === false && before.isSuperuser) await assertAnotherActiveSuperuser(tx, before.id);
    const [after] = await tx.update(users).set(values).where(eq(users.id, before.id)).returning();
    if (values.isActive === false) await withdrawPendingEmailChanges(tx, before.id, { requestedBy: true });
    const profile = describeChanges({
      first_name: [before.firstName, after!.firstName],
      last_name: [before.lastName, after!.lastName],
      phone: [before.phone, after!.phone],
    });
    if (profile) await recordAudit(tx, actor, { action: `Updated user ${displayName(after!)}`, changesText: profile });
    if (before.isActive !== after!.isActive) {
      await recordAudit(tx, actor, {
        action: `${after!.isActive ? 'Activated' : 'Deactivated'} user ${displayName(after!)}`,
        changesText: describeChanges({ is_active: [before.isActive, after!.isActive] }),
      });
    }
  });
  return (await loadUserDto(db, before.id))!;
}

export function createTeamStore(db: Database, { tokens }: Pick<PeopleDeps, 'tokens'>) {
  async function list(
    { limit, offset }: PageRequest,
    options: { ordering?: string; search?: string },
  ): Promise<Slice<UserDto>> {
    const where = searchAny(options.search, [users.email, sql`${users.firstName} || ' ' || ${users.lastName}`]);
    const order = orderingTerms(options.ordering, USER_ORDERING, [asc(users.id)]);
    const counting = db.select({ n: count() }).from(users).where(where);
    const { count: total, results: rows } = await sliceWithTotal(
      db
        .select({ user: getTableColumns(users), total: totalOf(counting) })
        .from(users)
        .where(where)
        .orderBy(...order, asc(users.id))
        .limit(limit)
        .offset(offset),
      offset,
      () => counting,
    );
    return {
      count: total,
      results: await toUserDtos(
        db,
        rows.map((r) => r.user),
      ),
    };
  }

  async function get(id: number): Promise<UserDto> {
    const user = await loadUserDto(db, id);
    if (!user) throw notFound();
    return user;
  }

  /**
   * The Team screen shows one group per user, so setting a group replaces all of the user's groups.
   * The actor must hold the group's accesses and everything the user holds; a user who loses
   * accesses by the move is signed out everywhere.
   */
  async function setGroup(actor: AuthUser, userId: number, groupId: number): Promise<UserDto> {
    const user = await findUserById(db, userId);
    if (!user) throw notFound();
    const group = await findGroup(db, groupId);
    if (!group) throw notFound(PEOPLE_MESSAGES.groupNotFound);
    assertMayGrant(actor, group.accesses);
    await assertMayGrantScope(db, actor, group);
    const before = (await loadAuthUser(db, user.id))!;
    assertMayManageUser(actor, before);
    await db.transaction(async (tx) => {
      const previous = await tx
        .select({ name: groups.name })
        .from(userGroups)
        .innerJoin(groups, eq(groups.id, userGroups.groupId))
        .where(eq(userGroups.userId, user.id))
        .orderBy(asc(userGroups.position), asc(groups.id));
      await tx.delete(userGroups).where(eq(userGroups.userId, user.id));
      await tx.insert(userGroups).values({ userId: user.id, groupId: group.id, position: 0 });
      const changesText = describeChanges({ group: [previous.map((g) => g.name).join(', '), group.name] });
      if (changesText)
        await recordAudit(tx, actor, { action: `Changed group of user ${displayName(user)}`, changesText });
    });
    const after = (await permissionsOf(db, [user.id])).get(user.id) ?? new Set();
    if (lostAccesses(before.permissions, after).length) await tokens.endSessions(user.id, 'access');
    return (await loadUserDto(db, user.id))!;
  }

  /**
   * A user changes their own password, knowing the old one (throttled like sign-in); the change is
   * audited and withdraws any e-mail change of the account still waiting for confirmation. Every
   * other session ends: the answer carries this one's new tokens.
   */
  async function changeOwnPassword(actor: AuditActor, change: { old_password: string; new_password: string }) {
    const row = (await findUserById(db, actor.id))!;
    await checkOwnPassword(db, row, change.old_password, 'old_password', PEOPLE_MESSAGES.wrongOldPassword);
    const passwordHash = await hashPassword(change.new_password);
    await db.transaction(async (tx) => {
      await tx.update(users).set({ passwordHash }).where(eq(users.id, actor.id));
      await withdrawPendingEmailChanges(tx, actor.id);
      await recordAudit(tx, actor, { action: 'Changed own password' });
    });
    await tokens.endSessions(actor.id, 'password');
    return { detail: 'Password changed successfully', ...(await tokens.issue(actor.id)) };
  }

  return { list, get, setGroup, changeOwnPassword };
}

export type TeamStore = ReturnType<typeof createTeamStore>;
