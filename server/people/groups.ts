/**
 * Permission groups: reading, creating, changing and deleting them, each change audited. Only
 * within the actor's own accesses; members who lose accesses by a change are signed out.
 */
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { Database } from '../db/client';
import { folders, groups, userGroups } from '../db/schema/index';
import { describeChanges, recordAudit } from '../audit/log';
import { notFound, ValidationError } from '../http/errors';
import { RULE_SCOPE_MESSAGES } from '../../shared/people';
import { perDayText } from '../../shared/approvals';
import { orderingTerms, slice, type PageRequest, type Slice } from '../http/pagination';
import { assertMayChangeGroup, assertMayGrant, lostAccesses } from './access';
import { assertMayGrantScope } from './ruleScope';
import type { PeopleDeps } from './deps';
import { permissionsOf, toGroupDto, type AuthUser, type GroupDto } from './users';

export type GroupRow = typeof groups.$inferSelect;

/** A shared read: the group, for the other people stores too. */
export async function findGroup(db: Database, id: number): Promise<GroupRow | undefined> {
  const [row] = await db.select().from(groups).where(eq(groups.id, id));
  return row;
}

const accessList = (accesses: readonly string[]) => accesses.join(', ');

/** A group's rule folders and approval limit as given: undefined leaves them as they are. */
export interface RuleScopeChange {
  ruleFolders?: number[] | null;
  approvalLimit?: number | null;
}

/** 400 unless every one of these folders exists and is not in the trash. */
async function assertLiveFolders(db: Database, ids: readonly number[]): Promise<void> {
  if (!ids.length) return;
  const live = await db
    .select({ id: folders.id })
    .from(folders)
    .where(and(inArray(folders.id, [...ids]), eq(folders.isDeleted, false)));
  const found = new Set(live.map((r) => r.id));
  const gone = ids.filter((id) => !found.has(id));
  if (gone.length) throw new ValidationError({ rule_folders: [RULE_SCOPE_MESSAGES.folderGone(gone)] });
}

/** "All folders", or the folders' names (an id for one deleted since), as the log shows them. */
async function foldersText(db: Database, ids: readonly number[] | null): Promise<string> {
  if (!ids) return 'All folders';
  const rows = ids.length
    ? await db
        .select({ id: folders.id, name: folders.name })
        .from(folders)
        .where(inArray(folders.id, [...ids]))
    : [];
  const names = new Map(rows.map((r) => [r.id, r.name]));
  return ids.map((id) => names.get(id) ?? `folder ${id}`).join(', ');
}

const limitText = (limit: number | null) => (limit === null ? 'no limit' : perDayText(limit));

/** The group's members and what each holds now: to compare with what they hold after a change. */
async function membersOf(db: Database, groupId: number) {
  const rows = await db.select({ userId: userGroups.userId }).from(userGroups).where(eq(userGroups.groupId, groupId));
  return permissionsOf(
    db,
    rows.map((r) => r.userId),
  );
}

export function createGroupStore(db: Database, { tokens }: Pick<PeopleDeps, 'tokens'>) {
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

  async function create(
    actor: AuthUser,
    name: string,
    accesses: string[],
    scope: RuleScopeChange = {},
  ): Promise<GroupDto> {
    assertMayGrant(actor, accesses);
    const ruleFolderIds = scope.ruleFolders ?? null;
    const approvalLimit = scope.approvalLimit ?? null;
    await assertLiveFolders(db, ruleFolderIds ?? []);
    await assertMayGrantScope(db, actor, { accesses, ruleFolderIds, approvalLimit });
    const changesText = [
      accesses.length ? `accesses: ${accessList(accesses)}` : '',
      ruleFolderIds ? `rule folders: ${await foldersText(db, ruleFolderIds)}` : '',
      approvalLimit !== null ? `approval limit: ${limitText(approvalLimit)}` : '',
    ]
      .filter(Boolean)
      .join('; ');
    return db.transaction(async (tx) => {
      const [row] = await tx.insert(groups).values({ name, accesses, ruleFolderIds, approvalLimit }).returning();
      await recordAudit(tx, actor, { action: `Created group ${name}`, changesText });
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

  /**
   * A change that gives rule accesses, folders or a limit is checked against the actor's own
   * scope (assertMayGrantScope); a rename alone is not.
   */
  async function update(
    actor: AuthUser,
    id: number,
    change: { name?: string; accesses?: string[] } & RuleScopeChange,
  ): Promise<GroupDto> {
    const before = await get(id);
    assertMayChangeGroup(actor, before.accesses, change.accesses);
    const scopeChanged = change.ruleFolders !== undefined || change.approvalLimit !== undefined;
    // A PATCH naming no field changes nothing (and an UPDATE must set something).
    if (change.name === undefined && !change.accesses && !scopeChanged) return toGroupDto(before);
    const after = {
      accesses: change.accesses ?? before.accesses,
      ruleFolderIds: change.ruleFolders === undefined ? before.ruleFolderIds : change.ruleFolders,
      approvalLimit: change.approvalLimit === undefined ? before.approvalLimit : change.approvalLimit,
    };
    const known = new Set(before.ruleFolderIds ?? []);
    await assertLiveFolders(
      db,
      (change.ruleFolders ?? []).filter((folderId) => !known.has(folderId)),
    );
    if (change.accesses || scopeChanged) await assertMayGrantScope(db, actor, after);
    const [foldersBefore, foldersAfter] = await Promise.all([
      foldersText(db, before.ruleFolderIds),
      foldersText(db, after.ruleFolderIds),
    ]);
    const members = await membersOf(db, before.id);
    const updated = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(groups)
        .set({
          ...(change.name !== undefined && { name: change.name }),
          ...(change.accesses && { accesses: change.accesses }),
          ...(change.ruleFolders !== undefined && { ruleFolderIds: change.ruleFolders }),
          ...(change.approvalLimit !== undefined && { approvalLimit: change.approvalLimit }),
        })
        .where(eq(groups.id, before.id))
        .returning();
      const changesText = describeChanges({
        name: [before.name, row!.name],
        accesses: [accessList(before.accesses), accessList(row!.accesses)],
        'rule folders': [foldersBefore, foldersAfter],
        'approval limit': [limitText(before.approvalLimit), limitText(row!.approvalLimit)],
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

export type GroupStore = ReturnType<typeof createGroupStore>;
