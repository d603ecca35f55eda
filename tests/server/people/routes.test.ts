import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, groups, userGroups } from '../../../server/db/schema/index';
import { PERMISSIONS } from '../../../shared/permissions';
import { MESSAGES } from '../../../shared/validation';
import { createTestApi, type TestApi, type TestUser, USER_FIELDS } from '../../support/api';
import { eachDatabase } from '../../support/db';

eachDatabase((engine) => {
  describe(`people API on ${engine}: team and account`, () => {
    let api: TestApi;
    let admin: TestUser;
    beforeAll(async () => {
      api = await createTestApi(engine);
      admin = await api.userWith('superuser', { firstName: 'Ada', lastName: 'Admin' });
    });
    afterAll(() => api.close());

    const call = (user: TestUser | null, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
      api.request(user?.token ?? null, { method, url, ...(payload && { payload }) });
    const lastAudit = async () => (await api.dbh.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1))[0];
    const login = (email: string, password: string) =>
      api.app.inject({ method: 'POST', url: '/api/token/', payload: { email, password } });

    describe('GET /api/user/', () => {
      it('pages the team with count and the contract user fields', async () => {
        for (let i = 0; i < 3; i += 1) await api.userWith([]);
        const first = await call(admin, 'GET', '/api/user/?limit=2&offset=0');
        expect(first.statusCode).toBe(200);
        const body = first.json();
        expect(body.count).toBeGreaterThanOrEqual(4);
        expect(body.results).toHaveLength(2);
        expect(Object.keys(body.results[0]).sort()).toEqual([...USER_FIELDS].sort());
        expect(body.next).toContain('offset=2');
        const second = (await call(admin, 'GET', '/api/user/?limit=2&offset=2')).json();
        expect(second.results.map((u: { id: number }) => u.id)).not.toContain(body.results[0].id);
      });

      it('is open to the Team screen permissions and closed to others', async () => {
        for (const permission of ['update_permissions', 'add_edit_users', 'is_staff'] as const) {
          expect((await call(await api.userWith([permission]), 'GET', '/api/user/')).statusCode).toBe(200);
        }
        const response = await call(await api.userWith(['read_rules']), 'GET', '/api/user/');
        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual({ detail: 'You do not have permission to perform this action.' });
        expect((await call(null, 'GET', '/api/user/')).statusCode).toBe(401);
      });
    });

    describe('PATCH /api/user/{id}/', () => {
      it('saves the own account and writes an audit entry', async () => {
        const user = await api.userWith([]);
        const response = await call(user, 'PATCH', `/api/user/${user.id}/`, {
          first_name: 'Grace',
          last_name: 'Hopper',
          phone: '+12 3456 7890',
          email: user.email,
        });
        expect(response.statusCode).toBe(200);
        expect(response.json()).toMatchObject({
          id: user.id,
          first_name: 'Grace',
          last_name: 'Hopper',
          phone: '+12 3456 7890',
        });
        const me = (await call(user, 'GET', '/api/user/me/')).json();
        expect(me.first_name).toBe('Grace');
        const entry = await lastAudit();
        expect(entry).toMatchObject({ actorId: user.id, action: 'Updated user Grace Hopper' });
        expect(entry!.changesText).toContain('first_name: Test → Grace');
        expect(entry!.changesText).toContain('phone: — → +12 3456 7890');
      });

      it('answers the contract validation messages per field', async () => {
        const user = await api.userWith([]);
        const response = await call(user, 'PATCH', `/api/user/${user.id}/`, {
          first_name: '  ',
          last_name: '',
          phone: '12-34',
          email: 'not-an-email',
        });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({
          first_name: ['Field is required'],
          last_name: ['Field is required'],
          phone: [MESSAGES.phone],
          email: ['E-mail must be valid'],
        });
      });

      it('refuses an e-mail that another account has', async () => {
        const user = await api.userWith([]);
        const other = await api.userWith([]);
        const response = await call(user, 'PATCH', `/api/user/${user.id}/`, {
          email: other.email.toUpperCase(),
          current_password: user.password,
        });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ email: ['A user with this e-mail already exists.'] });
      });

      it("needs add_edit_users to change someone else's account", async () => {
        const target = await api.userWith([]);
        const plain = await api.userWith(['is_staff']);
        expect((await call(plain, 'PATCH', `/api/user/${target.id}/`, { first_name: 'X' })).statusCode).toBe(403);
        const editor = await api.userWith(['add_edit_users']);
        const response = await call(editor, 'PATCH', `/api/user/${target.id}/`, { first_name: 'Renamed' });
        expect(response.statusCode).toBe(200);
        expect(response.json().first_name).toBe('Renamed');
      });

      it('needs is_staff to deactivate; the deactivated user is signed out everywhere', async () => {
        const target = await api.userWith([]);
        const editor = await api.userWith(['add_edit_users']);
        expect((await call(editor, 'PATCH', `/api/user/${target.id}/`, { is_active: false })).statusCode).toBe(403);

        const staff = await api.userWith(['is_staff']);
        const response = await call(staff, 'PATCH', `/api/user/${target.id}/`, { is_active: false });
        expect(response.statusCode).toBe(200);
        expect(response.json().is_active).toBe(false);
        expect((await call(target, 'GET', '/api/user/me/')).statusCode).toBe(401);
        const refresh = await api.app.inject({
          method: 'POST',
          url: '/api/token/refresh/',
          payload: { refresh: target.refresh },
        });
        expect(refresh.statusCode).toBe(401);
        expect((await login(target.email, target.password)).statusCode).toBe(401);
        expect(await lastAudit()).toMatchObject({
          actorId: staff.id,
          action: expect.stringMatching(/^Deactivated user /),
        });

        const again = await call(staff, 'PATCH', `/api/user/${target.id}/`, { is_active: true });
        expect(again.json().is_active).toBe(true);
        expect((await login(target.email, target.password)).statusCode).toBe(200);
        expect(await lastAudit()).toMatchObject({ action: expect.stringMatching(/^Activated user /) });
      });

      it('lets nobody deactivate themselves', async () => {
        const response = await call(admin, 'PATCH', `/api/user/${admin.id}/`, { is_active: false });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ is_active: ['You cannot deactivate your own account.'] });
      });

      it('keeps superusers out of reach of non-superusers', async () => {
        const staff = await api.userWith(['is_staff', 'add_edit_users']);
        for (const payload of [{ is_active: false }, { email: 'takeover@example.com' }]) {
          const response = await call(staff, 'PATCH', `/api/user/${admin.id}/`, payload);
          expect(response.statusCode).toBe(403);
          expect(response.json()).toEqual({ detail: 'Only a superuser can change a superuser.' });
        }
      });

      it('answers 404 for an unknown user', async () => {
        expect((await call(admin, 'PATCH', '/api/user/999999/', { first_name: 'X' })).statusCode).toBe(404);
        expect((await call(admin, 'PATCH', '/api/user/abc/', { first_name: 'X' })).statusCode).toBe(404);
      });
    });

    describe('GET /api/user/{id}/set_group/{group_id}/', () => {
      it("replaces the user's group and answers their groups", async () => {
        const first = await api.newGroup('Analysts', ['read_rules']);
        const second = await api.newGroup('Editors', ['read_rules', 'create_update_rules']);
        const target = await api.userWith([]);
        await call(admin, 'GET', `/api/user/${target.id}/set_group/${first.id}/`);
        const response = await call(admin, 'GET', `/api/user/${target.id}/set_group/${second.id}/`);
        expect(response.statusCode).toBe(200);
        expect(response.json().groups).toEqual([
          {
            id: second.id,
            name: 'Editors',
            group_access: { accesses: ['read_rules', 'create_update_rules'] },
            rule_folders: null,
            approval_limit: null,
          },
        ]);
        expect(await lastAudit()).toMatchObject({ changesText: 'group: Analysts → Editors' });
        // The new group's accesses apply to the user's calls at once.
        const me = (await call(target, 'GET', '/api/user/me/')).json();
        expect(me.groups.map((g: { name: string }) => g.name)).toEqual(['Editors']);
      });

      it('needs add_edit_users, and cannot hand out accesses the caller lacks', async () => {
        const group = await api.newGroup('Admins', [...PERMISSIONS]);
        const target = await api.userWith([]);
        const noRight = await api.userWith(['is_staff']);
        expect((await call(noRight, 'GET', `/api/user/${target.id}/set_group/${group.id}/`)).statusCode).toBe(403);
        const editor = await api.userWith(['add_edit_users']);
        const response = await call(editor, 'GET', `/api/user/${editor.id}/set_group/${group.id}/`);
        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual({ detail: 'You cannot grant accesses you do not hold yourself.' });
        const modest = await api.newGroup('Inviters', ['add_edit_users']);
        expect((await call(editor, 'GET', `/api/user/${target.id}/set_group/${modest.id}/`)).statusCode).toBe(200);
      });

      it('answers 404 for an unknown group or user', async () => {
        const target = await api.userWith([]);
        expect((await call(admin, 'GET', `/api/user/${target.id}/set_group/999999/`)).json()).toEqual({
          detail: 'Group not found.',
        });
        const group = await api.newGroup('Any', []);
        expect((await call(admin, 'GET', `/api/user/999999/set_group/${group.id}/`)).statusCode).toBe(404);
      });
    });

    describe('POST /api/user/change_password/', () => {
      const change = (user: TestUser, payload: object) => call(user, 'POST', '/api/user/change_password/', payload);

      it('checks the old password and the password rules', async () => {
        const user = await api.userWith([]);
        const wrong = await change(user, {
          old_password: 'not-my-password',
          new_password: 'new-password-1',
          new_password2: 'new-password-1',
        });
        expect(wrong.statusCode).toBe(400);
        expect(wrong.json()).toEqual({ old_password: ['Old password is not correct.'] });

        const invalid = await change(user, { old_password: '', new_password: 'short', new_password2: 'different-1' });
        expect(invalid.json()).toEqual({
          old_password: ['Password is required'],
          new_password: ['Password must be at least 8 characters'],
          new_password2: ['Passwords must match'],
        });
        expect((await change(user, {})).json()).toEqual({
          old_password: ['Password is required'],
          new_password: ['Password is required'],
          new_password2: ['Password confirmation is required'],
        });
      });

      it('changes the password, ends other sessions and answers fresh tokens', async () => {
        const user = await api.userWith([]);
        const response = await change(user, {
          old_password: user.password,
          new_password: 'brand-new-pass',
          new_password2: 'brand-new-pass',
        });
        expect(response.statusCode).toBe(200);
        const body = response.json();
        expect(body.detail).toBe('Password changed successfully');
        expect((await login(user.email, user.password)).statusCode).toBe(401);
        expect((await login(user.email, 'brand-new-pass')).statusCode).toBe(200);
        const oldRefresh = await api.app.inject({
          method: 'POST',
          url: '/api/token/refresh/',
          payload: { refresh: user.refresh },
        });
        expect(oldRefresh.statusCode).toBe(401);
        const newRefresh = await api.app.inject({
          method: 'POST',
          url: '/api/token/refresh/',
          payload: { refresh: body.refresh },
        });
        expect(newRefresh.statusCode).toBe(200);
        expect((await api.request(body.access, { method: 'GET', url: '/api/user/me/' })).statusCode).toBe(200);
        expect(await lastAudit()).toMatchObject({ actorId: user.id, action: 'Changed own password', changesText: '' });
      });
    });

    describe('groups', () => {
      it('lists the contract permission names to whoever may see the Permissions screen', async () => {
        const viewer = await api.userWith(['view_permissions']);
        const response = await call(viewer, 'GET', '/api/groups/available_permissions/');
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual([...PERMISSIONS]);
        expect(
          (await call(await api.userWith(['read_rules']), 'GET', '/api/groups/available_permissions/')).statusCode,
        ).toBe(403);
      });

      it("creates 'New group' with no accesses by default", async () => {
        const response = await call(admin, 'POST', '/api/groups/', {});
        expect(response.statusCode).toBe(201);
        expect(response.json()).toEqual({
          id: expect.any(Number),
          name: 'New group',
          group_access: { accesses: [] },
          rule_folders: null,
          approval_limit: null,
        });
        expect(await lastAudit()).toMatchObject({ actorId: admin.id, action: 'Created group New group' });
      });

      it('validates names and permission names', async () => {
        const blank = await call(admin, 'POST', '/api/groups/', {
          name: ' ',
          group_access: { accesses: ['read_rules', 'fly'] },
        });
        expect(blank.statusCode).toBe(400);
        expect(blank.json()).toEqual({
          name: ['Field is required'],
          'group_access.accesses': ['Unknown permission: fly'],
        });
        const long = await call(admin, 'POST', '/api/groups/', { name: 'x'.repeat(151) });
        expect(long.json()).toEqual({ name: ['Field must be at most 150 characters'] });
      });

      it('renames a group and toggles its accesses, each change audited', async () => {
        const created = (await call(admin, 'POST', '/api/groups/', { name: 'Media buyers' })).json();
        const renamed = await call(admin, 'PATCH', `/api/groups/${created.id}/`, { name: 'Media team' });
        expect(renamed.statusCode).toBe(200);
        expect(renamed.json().name).toBe('Media team');
        expect(await lastAudit()).toMatchObject({
          action: 'Updated group Media team',
          changesText: 'name: Media buyers → Media team',
        });

        const toggled = await call(admin, 'PATCH', `/api/groups/${created.id}/`, {
          group_access: { accesses: ['view_logs', 'read_rules'] },
        });
        // Stored in the order of docs/contract.md#permissions, whatever order the screen sent.
        expect(toggled.json().group_access.accesses).toEqual(['read_rules', 'view_logs']);
        expect(await lastAudit()).toMatchObject({ changesText: 'accesses: — → read_rules, view_logs' });
        const listed = (await call(admin, 'GET', '/api/groups/?limit=100')).json();
        expect(listed.results).toContainEqual({
          id: created.id,
          name: 'Media team',
          group_access: { accesses: ['read_rules', 'view_logs'] },
          rule_folders: null,
          approval_limit: null,
        });
        expect(listed.count).toBe(listed.results.length);
        expect((await call(admin, 'GET', `/api/groups/${created.id}/`)).json().name).toBe('Media team');
      });

      it('deletes a group; its members lose it', async () => {
        const group = await api.newGroup('Temporary', ['read_rules']);
        const member = await api.userWith([]);
        await api.dbh.db.insert(userGroups).values({ userId: member.id, groupId: group.id });
        const response = await call(admin, 'DELETE', `/api/groups/${group.id}/`);
        expect(response.statusCode).toBe(204);
        expect((await call(admin, 'GET', `/api/groups/${group.id}/`)).statusCode).toBe(404);
        expect((await call(admin, 'GET', `/api/user/${member.id}/`)).json().groups).toEqual([]);
        // Losing the group's accesses ends the member's sessions.
        expect((await call(member, 'GET', '/api/user/me/')).statusCode).toBe(401);
        expect(await lastAudit()).toMatchObject({
          action: 'Deleted group Temporary',
          changesText: 'accesses: read_rules',
        });
        expect((await call(admin, 'DELETE', `/api/groups/${group.id}/`)).statusCode).toBe(404);
      });

      it('lets view_permissions read groups but only update_permissions change them', async () => {
        const group = await api.newGroup('Readers', ['read_rules']);
        const viewer = await api.userWith(['view_permissions']);
        expect((await call(viewer, 'GET', '/api/groups/')).statusCode).toBe(200);
        expect((await call(viewer, 'POST', '/api/groups/', {})).statusCode).toBe(403);
        expect((await call(viewer, 'PATCH', `/api/groups/${group.id}/`, { name: 'X' })).statusCode).toBe(403);
        expect((await call(viewer, 'DELETE', `/api/groups/${group.id}/`)).statusCode).toBe(403);
        expect((await call(await api.userWith(['read_rules']), 'GET', '/api/groups/')).statusCode).toBe(403);
        expect((await call(await api.userWith(['add_edit_users']), 'GET', '/api/groups/')).statusCode).toBe(200);
      });

      it('does not let update_permissions grant, edit or delete accesses its holder lacks', async () => {
        const manager = await api.userWith(['update_permissions', 'view_permissions']);
        const group = await api.newGroup('Managed', ['view_permissions']);
        const escalate = await call(manager, 'PATCH', `/api/groups/${group.id}/`, {
          group_access: { accesses: ['view_permissions', 'add_edit_users'] },
        });
        expect(escalate.statusCode).toBe(403);
        // Within its own accesses, adding and removing are fine.
        const keep = await call(manager, 'PATCH', `/api/groups/${group.id}/`, {
          group_access: { accesses: ['view_permissions', 'update_permissions'] },
        });
        expect(keep.statusCode).toBe(200);
        const remove = await call(manager, 'PATCH', `/api/groups/${group.id}/`, { group_access: { accesses: [] } });
        expect(remove.json().group_access.accesses).toEqual([]);
        expect(
          (await call(manager, 'POST', '/api/groups/', { group_access: { accesses: ['read_rules'] } })).statusCode,
        ).toBe(403);
        const [stored] = await api.dbh.db.select().from(groups).where(eq(groups.id, group.id));
        expect(stored!.accesses).toEqual([]);
        // A group holding an access the manager lacks is out of reach, even to remove that access.
        const stronger = await api.newGroup('Stronger', ['delete_rules']);
        for (const [method, payload] of [
          ['PATCH', { group_access: { accesses: [] } }],
          ['PATCH', { name: 'Renamed' }],
          ['DELETE', undefined],
        ] as const) {
          const response = await call(manager, method, `/api/groups/${stronger.id}/`, payload);
          expect(response.statusCode).toBe(403);
          expect(response.json()).toEqual({
            detail: 'You cannot change a group that holds accesses you do not hold yourself.',
          });
        }
      });
    });
  });
});
