/** Permission groups: reading, creating, changing and deleting them, each change audited. */
import { asc, count, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { groups } from '../db/schema/index';
import { describeChanges, recordAudit, type AuditActor } from '../audit/log';
import { orderingTerms, slice, type PageRequest, type Slice } from '../http/pagination';
import { toGroupDto, type GroupDto } from './users';

export type GroupRow = typeof groups.$inferSelect;

export async function findGroup(db: Database, id: number): Promise<GroupRow | undefined> {
  const [row] = await db.select().from(groups).where(eq(groups.id, id));
  return row;
}

export async function listGroups(
  db: Database,
  { limit, offset }: PageRequest,
  ordering: string | undefined,
): Promise<Slice<GroupDto>> {
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

const accessList = (accesses: readonly string[]) => accesses.join(', ');

export async function createGroup(
  db: Database,
  actor: AuditActor,
  name: string,
  accesses: string[],
): Promise<GroupDto> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(groups).values({ name, accesses }).returning();
    await recordAudit(tx, actor, {
      action: `Created group ${name}`,
      changesText: accesses.length ? `accesses: ${accessList(accesses)}` : '',
    });
    return toGroupDto(row!);
  });
}

export async function updateGroup(
  db: Database,
  actor: AuditActor,
  before: GroupRow,
  change: { name?: string; accesses?: string[] },
): Promise<GroupDto> {
  // A PATCH naming no field changes nothing (and an UPDATE must set something).
  if (change.name === undefined && !change.accesses) return toGroupDto(before);
  return db.transaction(async (tx) => {
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
}

/** Members simply lose the group (user_groups rows cascade). */
export async function deleteGroup(db: Database, actor: AuditActor, group: GroupRow): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(groups).where(eq(groups.id, group.id));
    await recordAudit(tx, actor, {
      action: `Deleted group ${group.name}`,
      changesText: `accesses: ${accessList(group.accesses) || '—'}`,
    });
  });
}
