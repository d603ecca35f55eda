import { describe, expect, it } from 'vitest';
import { effectivePermissions, hasPermission, PERMISSIONS, permissionLabel } from '../../shared/permissions';

const group = (...accesses: string[]) => ({ group_access: { accesses } });

describe('effective permissions', () => {
  it('gives a superuser every permission', () => {
    expect([...effectivePermissions({ is_superuser: true, groups: [] })].sort()).toEqual([...PERMISSIONS].sort());
  });

  it('gives others the union of their groups, ignoring unknown names', () => {
    const user = {
      is_superuser: false,
      groups: [group('read_rules', 'view_logs'), group('view_logs', 'delete_rules', 'bogus')],
    };
    expect([...effectivePermissions(user)].sort()).toEqual(['delete_rules', 'read_rules', 'view_logs']);
  });

  it('gives a user with no groups nothing, and nobody at all nothing', () => {
    expect(effectivePermissions({ is_superuser: false, groups: [] }).size).toBe(0);
    expect(effectivePermissions(null).size).toBe(0);
  });

  it('grants is_staff from the user flag too', () => {
    expect(hasPermission({ is_superuser: false, is_staff: true, groups: [] }, 'is_staff')).toBe(true);
    expect(hasPermission({ is_superuser: false, is_staff: false, groups: [] }, 'is_staff')).toBe(false);
  });

  it('shows access names with spaces', () => {
    expect(permissionLabel('add_edit_campaigns')).toBe('add edit campaigns');
  });
});
