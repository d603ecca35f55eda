import { describe, expect, it } from 'vitest';
import { effectivePermissions, PEOPLE_ACCESS } from '../../../shared/permissions';
import { canAccess, holdsRule } from '../../../src/providers/canAccess';
import { accessRulesOf, resources } from '../../../src/resources';
import { makeUser, withAccesses } from '../../support/users';

const permissionsOf = (...accesses: string[]) => effectivePermissions(makeUser(withAccesses(...accesses)));

describe('the Team access rule', () => {
  it('lets in whoever can act on the team: update_permissions, add_edit_users or is_staff', () => {
    for (const access of PEOPLE_ACCESS.team) expect(holdsRule(permissionsOf(access), PEOPLE_ACCESS.team)).toBe(true);
    expect(holdsRule(permissionsOf('read_rules', 'view_permissions', 'delete_rules'), PEOPLE_ACCESS.team)).toBe(false);
    expect(holdsRule(effectivePermissions(makeUser({ is_superuser: true })), PEOPLE_ACCESS.team)).toBe(true);
    expect(holdsRule(effectivePermissions(null), PEOPLE_ACCESS.team)).toBe(false);
  });

  it('is the rule the /team route (the team resource) checks', () => {
    const rules = accessRulesOf(resources);
    for (const access of PEOPLE_ACCESS.team)
      expect(canAccess(permissionsOf(access), { resource: 'team', action: 'list' }, rules)).toBe(true);
    expect(canAccess(permissionsOf('view_permissions'), { resource: 'team', action: 'list' }, rules)).toBe(false);
  });

  it('lets only update_permissions change groups on the Permissions screen', () => {
    const rules = accessRulesOf(resources);
    for (const action of ['create', 'edit', 'delete']) {
      expect(canAccess(permissionsOf('update_permissions'), { resource: 'permissions', action }, rules)).toBe(true);
      expect(canAccess(permissionsOf('view_permissions'), { resource: 'permissions', action }, rules)).toBe(false);
    }
  });
});
