import { describe, expect, it } from 'vitest';
import { effectivePermissions } from '../../../src/domain/permissions';
import { canAccess, canOpenTeam, TEAM_ACCESS } from '../../../src/providers/canAccess';
import { accessRulesOf, resources } from '../../../src/resources';
import { makeUser, withAccesses } from '../../support/users';

const permissionsOf = (...accesses: string[]) => effectivePermissions(makeUser(withAccesses(...accesses)));

describe('the Team access rule', () => {
  it('lets in whoever can act on the team: update_permissions, add_edit_users or is_staff', () => {
    for (const access of TEAM_ACCESS) expect(canOpenTeam(permissionsOf(access))).toBe(true);
    expect(canOpenTeam(permissionsOf('read_rules', 'view_permissions', 'delete_rules'))).toBe(false);
    expect(canOpenTeam(effectivePermissions(makeUser({ is_superuser: true })))).toBe(true);
    expect(canOpenTeam(effectivePermissions(null))).toBe(false);
  });

  it('is the rule the /team route (the team resource) checks', () => {
    const rules = accessRulesOf(resources);
    for (const access of TEAM_ACCESS)
      expect(canAccess(permissionsOf(access), { resource: 'team', action: 'list' }, rules)).toBe(true);
    expect(canAccess(permissionsOf('view_permissions'), { resource: 'team', action: 'list' }, rules)).toBe(false);
  });
});
