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

/**
 * Who may do what on Team and Permissions (docs/contract.md#permissions): the one list the server's
 * route guards and the app's menus, pages and buttons read. A list means any one of them.
 */
export const PEOPLE_ACCESS = {
  /** Open Team and list its members: whoever can act on the team (change groups, invite, (de)activate). */
  team: ['update_permissions', 'add_edit_users', 'is_staff'],
  /** Invite, change another member's profile or group. */
  manageMembers: 'add_edit_users',
  /** Activate and deactivate members. */
  activateMembers: 'is_staff',
  /** Read the groups: the Permissions screen's readers and the group pickers of those who place members. */
  readGroups: ['view_permissions', 'update_permissions', 'add_edit_users'],
  /** The accesses a group can hold (GET /api/groups/available_permissions/). */
  readAccesses: ['view_permissions', 'update_permissions'],
  /** The Permissions screen. */
  permissionsScreen: 'view_permissions',
  /** Create, rename, change the accesses of and delete groups. */
  changeGroups: 'update_permissions',
} as const satisfies Record<string, Permission | readonly Permission[]>;
