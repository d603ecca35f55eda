/**
 * react-admin access control as a pure, fast lookup (it runs per page and per row): which docs/contract.md#permissions
 * permission a resource action needs. Resources declare their own rules in their definition
 * (`access`); anything without a rule is open to signed-in users, as the server checks every call.
 */
import type { Permission } from '../../shared/permissions';

/** The action names react-admin asks about, plus '*' for every action of a resource. */
export type AccessAction = 'list' | 'show' | 'create' | 'edit' | 'delete' | 'export' | 'clone' | '*' | (string & {});

/** What an action needs: one permission, or any one of several. */
export type AccessRule = Permission | readonly Permission[];

/** resource → action → the permission it needs. */
export type AccessRules = Record<string, Partial<Record<AccessAction, AccessRule>>>;

export const holdsRule = (permissions: ReadonlySet<Permission>, rule: AccessRule): boolean =>
  typeof rule === 'string' ? permissions.has(rule) : rule.some((permission) => permissions.has(permission));

export interface AccessRequest {
  resource: string;
  action: string;
}

export function requiredPermission(rules: AccessRules, { resource, action }: AccessRequest): AccessRule | undefined {
  const forResource = rules[resource];
  if (!forResource) return undefined;
  return forResource[action] ?? forResource['*'];
}

/** A superuser's permission set holds every permission, so every rule passes for them. */
export function canAccess(permissions: ReadonlySet<Permission>, request: AccessRequest, rules: AccessRules): boolean {
  const needed = requiredPermission(rules, request);
  return needed === undefined || holdsRule(permissions, needed);
}
