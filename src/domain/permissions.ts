/** Permission names of docs/contract.md#permissions: the single list both the server and the browser app use. */
export const PERMISSIONS = [
  'create_update_rules',
  'read_rules',
  'delete_rules',
  'view_logs',
  'add_edit_users',
  'is_staff',
  'update_permissions',
  'view_permissions',
  'add_edit_campaigns',
  'view_folder',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export function isPermission(name: unknown): name is Permission {
  return typeof name === 'string' && (PERMISSIONS as readonly string[]).includes(name);
}

export interface PermissionHolder {
  is_superuser: boolean;
  is_staff?: boolean;
  groups: { group_access: { accesses: readonly string[] } }[];
}

/**
 * A superuser holds every permission; anyone else the union of their groups' accesses.
 * The is_staff flag also grants the is_staff permission (docs/contract.md#conventions).
 */
export function effectivePermissions(user: PermissionHolder | null | undefined): Set<Permission> {
  if (!user) return new Set();
  if (user.is_superuser) return new Set(PERMISSIONS);
  const granted = new Set<Permission>();
  for (const group of user.groups ?? []) {
    for (const access of group.group_access?.accesses ?? []) {
      if (isPermission(access)) granted.add(access);
    }
  }
  if (user.is_staff) granted.add('is_staff');
  return granted;
}

export function hasPermission(user: PermissionHolder | null | undefined, permission: Permission): boolean {
  return effectivePermissions(user).has(permission);
}

/** 'add_edit_campaigns' → 'add edit campaigns', as the screens show access names. */
export function permissionLabel(name: string): string {
  return name.replace(/_/g, ' ');
}
