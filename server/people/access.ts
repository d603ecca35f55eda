/**
 * The people area's permission rules beyond the route guards of auth/plugin.ts (docs/contract.md#conventions,
 * docs/decisions.md, docs/security.md "People and accounts"): nobody grants, changes or removes
 * what holds more than they do.
 */
import type { Permission } from '../../shared/permissions';
import { PEOPLE_MESSAGES } from '../../shared/people';
import { permissionDenied } from '../http/errors';
import type { AuthUser } from './users';

type Actor = Pick<AuthUser, 'is_superuser' | 'permissions'>;

/** Whoever holds every one of these accesses (a superuser holds them all). */
const holdsAll = (actor: Actor, accesses: Iterable<string>) =>
  actor.is_superuser || [...accesses].every((a) => actor.permissions.has(a as Permission));

/**
 * Nobody hands out accesses they do not hold: a non-superuser may put people into a group, or add
 * accesses to a group, only within their own permissions. Otherwise add_edit_users or
 * update_permissions would let anyone make themselves an administrator.
 */
export function assertMayGrant(actor: Actor, accesses: readonly string[]): void {
  if (!holdsAll(actor, accesses)) throw permissionDenied(PEOPLE_MESSAGES.grantBeyondOwn);
}

/**
 * Changing someone else's account (name, phone, e-mail, activity, group) needs a superuser, or an
 * actor holding every access the target holds (the is_staff flag counts as the is_staff access);
 * only a superuser changes a superuser. Otherwise a team admin could take over a stronger account.
 */
export function assertMayManageUser(actor: Actor, target: Actor): void {
  if (target.is_superuser && !actor.is_superuser) throw permissionDenied(PEOPLE_MESSAGES.superuserOnly);
  if (!holdsAll(actor, target.permissions)) throw permissionDenied(PEOPLE_MESSAGES.holdsMore);
}

/** Editing or deleting a group needs every access it holds now and every one it is given. */
export function assertMayChangeGroup(actor: Actor, current: readonly string[], next: readonly string[] = []): void {
  if (!holdsAll(actor, current)) throw permissionDenied(PEOPLE_MESSAGES.groupBeyondOwn);
  assertMayGrant(actor, next);
}

/** The accesses someone held before and no longer holds. */
export const lostAccesses = (before: ReadonlySet<string>, after: ReadonlySet<string>) =>
  [...before].filter((a) => !after.has(a));
