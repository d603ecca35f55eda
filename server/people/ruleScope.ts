/**
 * Where a person's rule accesses apply, and how much one of their approvals may release: from the
 * permission groups that grant the access (groups.rule_folder_ids, groups.approval_limit). The
 * folders are the union of those groups' (any group naming none: every folder); the limit is the
 * largest of theirs (any group without one: no limit). A superuser edits everywhere, without limit.
 */
import { asc, inArray } from 'drizzle-orm';
import { overLimitText, perDayText } from '../../shared/approvals';
import type { Database } from '../db/client';
import { folders } from '../db/schema/index';
import { permissionDenied } from '../http/errors';
import { loadAuthUser } from './users';

/** The accesses a group's folders scope. */
export type RuleAccess = 'create_update_rules' | 'delete_rules';
export const RULE_ACCESSES: readonly RuleAccess[] = ['create_update_rules', 'delete_rules'];

export interface RuleScope {
  folders: 'all' | ReadonlySet<number>;
  /** The most daily money (account currency) one approval may release; null: no limit. */
  approvalLimit: number | null;
}

/** A group as a signed-in user carries it (GroupDto). */
export interface ScopedGroup {
  group_access: { accesses: readonly string[] };
  rule_folders?: readonly number[] | null;
  approval_limit?: number | null;
}

export interface ScopeHolder {
  is_superuser: boolean;
  groups: readonly ScopedGroup[];
}

export const UNLIMITED_SCOPE: RuleScope = { folders: 'all', approvalLimit: null };
const NO_SCOPE: RuleScope = { folders: new Set(), approvalLimit: 0 };

/** The folders of the groups that grant `access`, and the approval limit of those that grant create_update_rules. */
export function ruleScopeFrom(holder: ScopeHolder, access: RuleAccess = 'create_update_rules'): RuleScope {
  if (holder.is_superuser) return UNLIMITED_SCOPE;
  const granting = (name: RuleAccess) => holder.groups.filter((g) => g.group_access.accesses.includes(name));
  const scoping = granting(access);
  const approving = granting('create_update_rules');
  const folders = !scoping.length
    ? NO_SCOPE.folders
    : scoping.some((g) => !g.rule_folders)
      ? 'all'
      : new Set(scoping.flatMap((g) => g.rule_folders ?? []));
  const limits = approving.map((g) => g.approval_limit ?? null);
  const approvalLimit = !approving.length
    ? NO_SCOPE.approvalLimit
    : limits.includes(null)
      ? null
      : Math.max(...(limits as number[]));
  return { folders, approvalLimit };
}

/** The scope of a user by id (none when there is no such user). */
export async function ruleScopeOf(db: Database, userId: number, access: RuleAccess = 'create_update_rules') {
  const user = await loadAuthUser(db, userId);
  return user ? ruleScopeFrom(user, access) : NO_SCOPE;
}

export const mayEditRulesIn = (scope: RuleScope, folderId: number): boolean =>
  scope.folders === 'all' || scope.folders.has(folderId);

/** Whether one approval of `perDay` (account currency a day) is within the scope's limit. */
export const mayApprove = (scope: RuleScope, perDay: number): boolean =>
  scope.approvalLimit === null || perDay <= scope.approvalLimit + 1e-9;

/** Why an approval of `perDay` is refused, or null when it is within the limit. */
export const approvalRefusal = (scope: RuleScope, perDay: number, currency?: string): string | null =>
  mayApprove(scope, perDay) ? null : overLimitText(perDay, scope.approvalLimit!, currency);

/** The names of these folders, in name order (gone ones left out). */
async function folderNames(db: Database, ids: Iterable<number>): Promise<string[]> {
  const wanted = [...ids];
  if (!wanted.length) return [];
  const rows = await db
    .select({ name: folders.name })
    .from(folders)
    .where(inArray(folders.id, wanted))
    .orderBy(asc(folders.name), asc(folders.id));
  return rows.map((r) => r.name);
}

const VERBS: Record<RuleAccess, string> = {
  create_update_rules: 'edit rules',
  delete_rules: 'restore and delete rules',
};

/** "Your permission group may edit rules only in: Folder A, Folder B." */
async function outOfScopeText(db: Database, scope: RuleScope, access: RuleAccess): Promise<string> {
  const names = scope.folders === 'all' ? [] : await folderNames(db, scope.folders);
  return names.length
    ? `Your permission group may ${VERBS[access]} only in: ${names.join(', ')}.`
    : `Your permission group may ${VERBS[access]} in no folder.`;
}

/** 403 unless `holder` may use `access` in every one of these folders. */
export async function assertMayEditRulesIn(
  db: Database,
  holder: ScopeHolder,
  folderIds: number | readonly number[],
  access: RuleAccess = 'create_update_rules',
): Promise<void> {
  const scope = ruleScopeFrom(holder, access);
  const ids = typeof folderIds === 'number' ? [folderIds] : folderIds;
  if (ids.every((id) => mayEditRulesIn(scope, id))) return;
  throw permissionDenied(await outOfScopeText(db, scope, access));
}

/** What a group holds that a scope could widen: its accesses, folders and approval limit. */
export interface GroupScope {
  accesses: readonly string[];
  ruleFolderIds: readonly number[] | null;
  approvalLimit: number | null;
}

/**
 * Nobody grants what holds more than they do: a group's rule accesses may apply only within the
 * granter's own folders for that access, and its approval limit may not exceed the granter's own.
 * Superusers and people whose own scope is unlimited may grant anything.
 */
export async function assertMayGrantScope(db: Database, granter: ScopeHolder, group: GroupScope): Promise<void> {
  for (const access of RULE_ACCESSES) {
    if (!group.accesses.includes(access)) continue;
    const own = ruleScopeFrom(granter, access);
    if (own.folders === 'all') continue;
    const ownFolders = own.folders;
    const within = group.ruleFolderIds?.every((id) => ownFolders.has(id)) ?? false;
    if (!within) {
      const names = await folderNames(db, ownFolders);
      throw permissionDenied(
        `You may give ${access.replaceAll('_', ' ')} only in your own folders (${names.join(', ') || 'none'}): choose folders among them.`,
      );
    }
  }
  if (!group.accesses.includes('create_update_rules')) return;
  const ownLimit = ruleScopeFrom(granter).approvalLimit;
  if (ownLimit === null) return;
  if (group.approvalLimit === null || group.approvalLimit > ownLimit)
    throw permissionDenied(
      `You may give an approval limit of at most ${perDayText(ownLimit)}, your own: set one no higher.`,
    );
}
