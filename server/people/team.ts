/** The team: listing users, changing their account fields, activity, group and own password, each change audited. */
import { asc, count, eq, sql } from 'drizzle-orm';
import { hashPassword, verifyPassword } from '../auth/passwords';
import type { Database } from '../db/client';
import { groups, userGroups, users } from '../db/schema/index';
import { actorName, describeChanges, recordAudit, type AuditActor } from '../audit/log';
import { orderingTerms, slice, type PageRequest, type Slice } from '../http/pagination';
import { PEOPLE_MESSAGES } from '../../src/domain/people';
import { ValidationError } from '../http/errors';
import {
  auditActorOf,
  findUserByEmail,
  findUserById,
  loadUserDto,
  toUserDtos,
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

export async function listUsers(
  db: Database,
  { limit, offset }: PageRequest,
  options: { ordering?: string; search?: string },
): Promise<Slice<UserDto>> {
  const where = searchAny(options.search, [users.email, sql`${users.firstName} || ' ' || ${users.lastName}`]);
  const order = orderingTerms(options.ordering, USER_ORDERING, [asc(users.id)]);
  const { count: total, results: rows } = await slice(
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(...order, asc(users.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(users).where(where),
  );
  return { count: total, results: await toUserDtos(db, rows) };
}

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

export interface AccountChange {
  first_name?: string;
  last_name?: string;
  phone?: string | null;
  email?: string;
  is_active?: boolean;
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
    ...(change.email !== undefined && { email: normaliseEmail(change.email) }),
    ...(change.is_active !== undefined && { isActive: change.is_active }),
  };
  if (values.email) await assertEmailFree(db, values.email, before.id);
  await catchingEmailRace(() =>
    db.transaction(async (tx) => {
      if (!Object.keys(values).length) return;
      const [after] = await tx.update(users).set(values).where(eq(users.id, before.id)).returning();
      const profile = describeChanges({
        first_name: [before.firstName, after!.firstName],
        last_name: [before.lastName, after!.lastName],
        phone: [before.phone, after!.phone],
        email: [before.email, after!.email],
      });
      if (profile)
        await recordAudit(tx, actor, { action: `Updated user ${displayName(after!)}`, changesText: profile });
      if (before.isActive !== after!.isActive) {
        await recordAudit(tx, actor, {
          action: `${after!.isActive ? 'Activated' : 'Deactivated'} user ${displayName(after!)}`,
          changesText: describeChanges({ is_active: [before.isActive, after!.isActive] }),
        });
      }
    }),
  );
  return (await loadUserDto(db, before.id))!;
}

/** The Team screen shows one group per user, so setting a group replaces all of the user's groups. */
export async function setUserGroup(
  db: Database,
  actor: AuditActor,
  user: UserRow,
  group: typeof groups.$inferSelect,
): Promise<UserDto> {
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
  return (await loadUserDto(db, user.id))!;
}

/** A user changes their own password, knowing the old one; the change is audited. */
export async function changeOwnPassword(
  db: Database,
  actor: AuditActor,
  change: { old_password: string; new_password: string },
): Promise<void> {
  const row = (await findUserById(db, actor.id))!;
  if (!(await verifyPassword(change.old_password, row.passwordHash))) {
    throw new ValidationError({ old_password: [PEOPLE_MESSAGES.wrongOldPassword] });
  }
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ passwordHash: await hashPassword(change.new_password) })
      .where(eq(users.id, actor.id));
    await recordAudit(tx, actor, { action: 'Changed own password' });
  });
}
