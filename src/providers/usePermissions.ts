/**
 * The one permission check of menus, pages and buttons (docs/frontend.md#permissions). It reads the
 * signed-in user straight from the session, so the answer is known on the first render: gated
 * controls never flash on and off.
 */
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { useAuthProvider } from 'react-admin';
import { effectivePermissions, type Permission } from '../../shared/permissions';
import type { AppAuthProvider } from './authProvider';
import { type AccessRequest, type AccessRule, canAccess, holdsRule } from './canAccess';
import { session, type SessionUser } from './session';

export function useSessionUser(): SessionUser | null {
  return useSyncExternalStore(session.subscribe, () => session.get().user);
}

/** The signed-in user's effective permissions (docs/contract.md#permissions); empty when signed out. */
function usePermissionSet(): ReadonlySet<Permission> {
  const user = useSessionUser();
  return useMemo(() => effectivePermissions(user), [user]);
}

/** What a check asks: a permission, any one of several, or a resource's action (the rule its definition declares). */
export type AccessCheck = AccessRule | AccessRequest;

const isRequest = (check: AccessCheck): check is AccessRequest => typeof check === 'object' && 'resource' in check;

/**
 * Whether the signed-in user may: `usePermission('delete_rules')`, `usePermission(PEOPLE_ACCESS.team)`,
 * `usePermission({ resource: 'team', action: 'edit' })`. A resource action is answered by the same
 * pure canAccess and the same rules as the authProvider's canAccess, which react-admin asks before
 * opening a resource's pages; without an authProvider (a lone component) resource actions are open.
 */
export function usePermission(check: AccessCheck): boolean {
  return usePermissionCheck()(check);
}

/** usePermission's check as a function, for a component that checks a list drawn from the registry. */
export function usePermissionCheck(): (check: AccessCheck) => boolean {
  const permissions = usePermissionSet();
  const authProvider = useAuthProvider<AppAuthProvider>();
  return useCallback(
    (check: AccessCheck) =>
      isRequest(check) ? canAccess(permissions, check, authProvider?.accessRules ?? {}) : holdsRule(permissions, check),
    [permissions, authProvider],
  );
}
