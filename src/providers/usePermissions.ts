/**
 * The permission check screens use. It reads the signed-in user straight from the session, so the
 * answer is known on the first render: gated controls never flash on and off.
 */
import { useMemo, useSyncExternalStore } from 'react';
import { effectivePermissions, type Permission } from '../domain/permissions';
import { canOpenTeam } from './canAccess';
import { session, type SessionUser } from './session';

export function useSessionUser(): SessionUser | null {
  return useSyncExternalStore(session.subscribe, () => session.get().user);
}

/** The signed-in user's effective permissions (docs/contract.md#permissions); empty when signed out. */
export function usePermissionSet(): ReadonlySet<Permission> {
  const user = useSessionUser();
  return useMemo(() => effectivePermissions(user), [user]);
}

/** Whether the signed-in user holds `name`. */
export function usePermission(name: Permission): boolean {
  return usePermissionSet().has(name);
}

/** Whether the signed-in user may open Team (the side panel link, the user menu entry, /team). */
export function useCanOpenTeam(): boolean {
  return canOpenTeam(usePermissionSet());
}
