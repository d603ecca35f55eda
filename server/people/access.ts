/** The people area's permission check beyond the route guards of auth/plugin.ts (DESIGN §4, docs/decisions.md). */
import type { Permission } from '../../src/domain/permissions';
import { PEOPLE_MESSAGES } from '../../src/domain/people';
import { permissionDenied } from '../http/errors';
import type { AuthUser } from './users';

/**
 * Nobody hands out accesses they do not hold: a non-superuser may put people into a group, or add
 * accesses to a group, only within their own permissions. Otherwise add_edit_users or
 * update_permissions would let anyone make themselves an administrator.
 */
export function assertMayGrant(actor: AuthUser, accesses: readonly string[]): void {
  if (actor.is_superuser) return;
  if (!accesses.every((a) => actor.permissions.has(a as Permission)))
    throw permissionDenied(PEOPLE_MESSAGES.grantBeyondOwn);
}
