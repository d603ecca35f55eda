/**
 * Permission groups: reading, creating, changing and deleting them, each change audited. Only
 * within the actor's own accesses; members who lose accesses by a change are signed out.
 */
import { asc, count, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { groups, userGroups } from '../db/schema/index';
import { describeChanges, recordAudit } from '../audit/log';
import { notFound } from '../http/errors';
import { orderingTerms, slice, type PageRequest, type Slice } from '../http/pagination';
import { assertMayChangeGroup, assertMayGrant, lostAccesses } from './access';
import type { PeopleDeps } from './deps';
import { permissionsOf, toGroupDto, type AuthUser, type GroupDto } from './users';

export type GroupRow = typeof groups.$inferSelect;

/** A shared read: the group, for the other people stores too. */
export async function findGroup(db: Database, id: number): Promise<GroupRow | undefined> {
  const [row] = await db.select().from(groups).where(eq(groups.id, id));
  return row;
}

const accessList = (accesses: readonly string[]) => accesses.join(', ');

/** The group's members and what each holds now: to compare with what they hold after a change. */
async function membersOf(db: Database, groupId: number) {
  const rows = await db.select({ userId: userGroups.userId }).from(userGroups).where(eq(userGroups.groupId, groupId));
  return permissionsOf(
    db,
    rows.map((r) => r.userId),
  );
}

export function createGroupStore({ db, tokens }: Pick<PeopleDeps, 'db' | 'tokens'>) {
  async function get(id: number): Promise<GroupRow> {
    const group = await findGroup(db, id);
    if (!group) throw notFound();
    return group;
  }

  async function list({ limit, offset }: PageRequest, ordering: string | undefined): Promise<Slice<GroupDto>> {
    const order = orderingTerms(ordering, { id: groups.id, name: groups.name }, [asc(groups.id)]);
    const { count: total, results } = await slice(
      db
        .select()
        .from(groups)
        .orderBy(...order, asc(groups.id))
        .limit(limit)
        .offset(offset),
      db.select({ n: count() }).from(groups),
    );
    return { count: total, results: results.map(toGroupDto) };
  }

  async function create(actor: AuthUser, name: string, accesses: string[]): Promise<GroupDto> {
    assertMayGrant(actor, accesses);
    return db.transaction(async (tx) => {
      const [row] = await tx.insert(groups).values({ name, accesses }).returning();
      await recordAudit(tx, actor, {
        action: `Created group ${name}`,
        changesText: accesses.length ? `accesses: ${accessList(accesses)}` : '',
      });
      return toGroupDto(row!);
    });
  }

  /** Ends the sessions of every member who holds less than before. */
  async function signOutWhoLost(before: Map<number, Set<string>>) {
    const after = await permissionsOf(db, [...before.keys()]);
    for (const [userId, held] of before) {
      if (lostAccesses(held, after.get(userId) ?? new Set()).length) await tokens.endSessions(userId, 'access');
    }
  }

  async function update(
    actor: AuthUser,
    id: number,
    change: { name?: string; accesses?: string[] },
  ): Promise<GroupDto> {
    const before = await get(id);
    assertMayChangeGroup(actor, before.accesses, change.accesses);
    // A PATCH naming no field changes nothing (and an UPDATE must set something).
    if (change.name === undefined && !change.accesses) return toGroupDto(before);
    const members = await membersOf(db, before.id);
    const updated = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(groups)
        .set({
          ...(change.name !== undefined && { name: change.name }),
          ...(change.accesses && { accesses: change.accesses }),
        })
        .where(eq(groups.id, before.id))
        .returning();
      const changesText = describeChanges({
        name: [before.name, row!.name],
        accesses: [accessList(before.accesses), accessList(row!.accesses)],
      });
      if (changesText) await recordAudit(tx, actor, { action: `Updated group ${row!.name}`, changesText });
      return toGroupDto(row!);
    });
    await signOutWhoLost(members);
    return updated;
  }

  /** Members simply lose the group (user_groups rows cascade). */
  async function remove(actor: AuthUser, id: number): Promise<void> {
    const group = await get(id);
    assertMayChangeGroup(actor, group.accesses);
    const members = await membersOf(db, group.id);
    await db.transaction(async (tx) => {
      await tx.delete(groups).where(eq(groups.id, group.id));
      await recordAudit(tx, actor, {
        action: `Deleted group ${group.name}`,
        changesText: `accesses: ${accessList(group.accesses) || '—'}`,
      });
    });
    await signOutWhoLost(members);
  }

  return { get, list, create, update, remove };
}
