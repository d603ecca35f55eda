/** Permission checks of the people area beyond `requirePermission` (DESIGN §4, docs/decisions.md). */
import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Permission } from '../../src/domain/permissions';
import { PEOPLE_MESSAGES } from '../../src/domain/people';
import { currentUser } from '../auth/plugin';
import { permissionDenied } from '../http/errors';
import type { AuthUser } from './users';

export const holdsAny = (user: AuthUser, permissions: readonly Permission[]) => permissions.some((p) => user.permissions.has(p));

/** preHandler: the user must hold at least one of the listed permissions. */
export function requireAnyPermission(...permissions: Permission[]): preHandlerAsyncHookHandler {
  return async (request: FastifyRequest) => {
    if (!holdsAny(currentUser(request), permissions)) throw permissionDenied();
  };
}

/**
 * Nobody hands out accesses they do not hold: a non-superuser may put people into a group, or add
 * accesses to a group, only within their own permissions. Otherwise add_edit_users or
 * update_permissions would let anyone make themselves an administrator.
 */
export function assertMayGrant(actor: AuthUser, accesses: readonly string[]): void {
  if (actor.is_superuser) return;
  if (!accesses.every((a) => actor.permissions.has(a as Permission))) throw permissionDenied(PEOPLE_MESSAGES.grantBeyondOwn);
}
