/**
 * People and accounts (docs/security.md): nobody takes over an account, or grants, changes or
 * removes what holds more than they do. E-mail changes go through a real SMTP server.
 */
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailChanges, users } from '../../../server/db/schema/index';
import { createTestApi, type TestApi, type TestUser } from '../../support/api';
import { eachDatabase } from '../../support/db';
import { linkPath, withMailingApi, type ReceivedMail, type SmtpPeer } from '../mail/support';

const PUBLIC_URL = 'https://console.example.com';
const HOLDS_MORE = { detail: 'You cannot change a user who holds accesses you do not hold yourself.' };
const SUPERUSER_ONLY = { detail: 'Only a superuser can change a superuser.' };

eachDatabase((engine) => {
  describe(`people and accounts on ${engine}`, () => {
    let peer: SmtpPeer;
    let api: TestApi;
    let admin: TestUser;
    let counter = 0;
    withMailingApi(engine, PUBLIC_URL, (fixture) => ({ api, peer, admin } = fixture));

    const call = (user: TestUser | null, method: 'GET' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
      api.request(user?.token ?? null, { method, url, ...(payload && { payload }) });
    const patchUser = (actor: TestUser, target: { id: number }, payload: object) =>
      call(actor, 'PATCH', `/api/user/${target.id}/`, payload);
    const login = (email: string, password: string) =>
      api.app.inject({ method: 'POST', url: '/api/token/', payload: { email, password } });
    const refresh = (user: TestUser) =>
      api.app.inject({ method: 'POST', url: '/api/token/refresh/', payload: { refresh: user.refresh } });
    const confirm = (payload: object) =>
      api.app.inject({ method: 'POST', url: '/api/user/confirm_email_change/', payload });
    const stored = async (id: number) => (await api.dbh.db.select().from(users).where(eq(users.id, id)))[0]!;
    const freshAddress = () => {
      counter += 1;
      return `moved${counter}-${engine}@example.com`;
    };
    /** The mail to `to` whose subject matches. */
    const mailTo = (to: string, subject: RegExp): Promise<ReceivedMail> =>
      peer.waitForMail((m) => m.to.includes(to) && subject.test(m.subject), `mail "${subject}" to ${to}`);
    const tokenOf = (mail: ReceivedMail) => {
      const [route, token] = linkPath(mail.links[0]!);
      expect(route).toBe('confirm-email-change');
      return token!;
    };

    describe("changing someone else's account", () => {
      it('needs every access the target holds: a team admin cannot take over a stronger account', async () => {
        const editor = await api.userWith(['add_edit_users']);
        const target = await api.userWith(['add_edit_users', 'delete_rules']);
        for (const payload of [
          { email: 'takeover@example.com' },
          { phone: '+44 1111 2222' },
          { first_name: 'Mallory' },
          { last_name: 'Mallory' },
        ]) {
          const response = await patchUser(editor, target, payload);
          expect(response.statusCode).toBe(403);
          expect(response.json()).toEqual(HOLDS_MORE);
        }
        const row = await stored(target.id);
        expect(row).toMatchObject({ email: target.email, phone: '', firstName: 'Test' });
        expect(await api.dbh.db.select().from(emailChanges).where(eq(emailChanges.userId, target.id))).toEqual([]);
      });

      it('counts the is_staff flag as the is_staff access, and keeps superusers for superusers', async () => {
        const flagged = await api.userWith([], { isStaff: true });
        const editor = await api.userWith(['add_edit_users']);
        expect((await patchUser(editor, flagged, { first_name: 'X' })).json()).toEqual(HOLDS_MORE);
        const staffEditor = await api.userWith(['add_edit_users', 'is_staff']);
        const allowed = await patchUser(staffEditor, flagged, { first_name: 'Renamed' });
        expect(allowed.statusCode).toBe(200);
        expect(allowed.json().first_name).toBe('Renamed');
        // Deactivating someone stronger is out of reach too.
        const strongStaff = await api.userWith(['is_staff', 'view_logs']);
        expect((await patchUser(staffEditor, strongStaff, { is_active: false })).json()).toEqual(HOLDS_MORE);
        expect((await stored(strongStaff.id)).isActive).toBe(true);

        const everything = await api.userWith(['add_edit_users', 'is_staff', 'update_permissions', 'view_logs']);
        expect((await patchUser(everything, admin, { phone: '+44 1111 2222' })).json()).toEqual(SUPERUSER_ONLY);
      });
    });

    describe('e-mail changes', () => {
      it('wait for confirmation from the new address, tell the old one, then end every session', async () => {
        const editor = await api.userWith('superuser', { firstName: 'Eve', lastName: 'Editor' });
        const target = await api.userWith([]);
        const newEmail = freshAddress();
        const response = await patchUser(editor, target, { email: newEmail.toUpperCase(), first_name: 'Tess' });
        expect(response.statusCode).toBe(200);
        expect(response.json()).toMatchObject({
          id: target.id,
          email: target.email,
          first_name: 'Tess',
          pending_email: newEmail,
          detail: `A confirmation link was sent to ${newEmail}. The e-mail address changes once it is confirmed.`,
        });
        expect((await stored(target.id)).email).toBe(target.email);

        const confirmation = await mailTo(newEmail, /^Confirm your new/);
        expect(confirmation.text).toContain('Eve Editor asked to make this the e-mail address');
        expect(confirmation.links[0]).toMatch(new RegExp(`^${PUBLIC_URL}/confirm-email-change/[A-Za-z0-9_-]{40,}$`));
        const notice = await mailTo(target.email, /change of your .* e-mail address was requested/);
        expect(notice.text).toContain('Eve Editor asked to change the e-mail address');
        expect(notice.text).toContain('not in effect until it is confirmed');

        // Until confirmed: the old address signs in, the new one does not, the sessions go on.
        expect((await login(newEmail, target.password)).statusCode).toBe(401);
        expect((await login(target.email, target.password)).statusCode).toBe(200);
        expect((await call(target, 'GET', '/api/user/me/')).statusCode).toBe(200);

        const token = tokenOf(confirmation);
        const [row] = await api.dbh.db.select().from(emailChanges).where(eq(emailChanges.userId, target.id));
        expect(row!.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));

        const confirmed = await confirm({ token });
        expect(confirmed.statusCode).toBe(200);
        expect(confirmed.json()).toEqual({
          detail: 'E-mail address changed. Sign in with the new address.',
          email: newEmail,
        });
        expect((await stored(target.id)).email).toBe(newEmail);
        expect((await call(target, 'GET', '/api/user/me/')).statusCode).toBe(401);
        expect((await refresh(target)).statusCode).toBe(401);
        expect((await login(target.email, target.password)).statusCode).toBe(401);
        expect((await login(newEmail, target.password)).statusCode).toBe(200);
        const changed = await mailTo(target.email, /e-mail address was changed$/);
        expect(changed.text).toContain('is now moved');

        const again = await confirm({ token });
        expect(again.statusCode).toBe(400);
        expect(again.json()).toEqual({ token: ['This e-mail confirmation link has already been used.'] });
      });

      it('of one’s own address need the current password', async () => {
        const user = await api.userWith([]);
        const newEmail = freshAddress();
        const missing = await patchUser(user, user, { email: newEmail });
        expect(missing.statusCode).toBe(400);
        expect(missing.json()).toEqual({
          current_password: ['Enter your current password to change your e-mail address.'],
        });
        const wrong = await patchUser(user, user, { email: newEmail, current_password: 'not-my-password' });
        expect(wrong.statusCode).toBe(400);
        expect(wrong.json()).toEqual({ current_password: ['Current password is not correct.'] });
        expect(peer.messages.some((m) => m.to.includes(newEmail))).toBe(false);

        const right = await patchUser(user, user, { email: newEmail, current_password: user.password });
        expect(right.statusCode).toBe(200);
        expect(right.json()).toMatchObject({ email: user.email, pending_email: newEmail });
        await mailTo(user.email, /was requested$/);
        // The same address again is no change and needs nothing.
        expect((await patchUser(user, user, { email: user.email.toUpperCase(), first_name: 'Same' })).statusCode).toBe(
          200,
        );
      });

      it('keep one request per account; unknown and expired links are refused', async () => {
        const target = await api.userWith([]);
        const first = freshAddress();
        const second = freshAddress();
        expect((await patchUser(admin, target, { email: first })).statusCode).toBe(200);
        expect((await patchUser(admin, target, { email: second })).statusCode).toBe(200);
        const replaced = await confirm({ token: tokenOf(await mailTo(first, /^Confirm/)) });
        expect(replaced.json()).toEqual({ token: ['This e-mail confirmation link is not valid.'] });

        const token = tokenOf(await mailTo(second, /^Confirm/));
        await api.dbh.db
          .update(emailChanges)
          .set({ expiresAt: new Date(Date.now() - 1000) })
          .where(eq(emailChanges.userId, target.id));
        const expired = await confirm({ token });
        expect(expired.statusCode).toBe(400);
        expect(expired.json()).toEqual({
          token: ['This e-mail confirmation link has expired. Change the address again.'],
        });
        expect((await stored(target.id)).email).toBe(target.email);
        expect((await confirm({})).json()).toEqual({ token: ['Field is required'] });
      });
    });

    describe('groups', () => {
      it('nobody moves a user who holds more than they do', async () => {
        const editor = await api.userWith(['add_edit_users', 'read_rules']);
        const stronger = await api.userWith(['add_edit_users', 'read_rules', 'delete_rules']);
        const modest = await api.newGroup('Readers', ['read_rules']);
        const response = await call(editor, 'GET', `/api/user/${stronger.id}/set_group/${modest.id}/`);
        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual(HOLDS_MORE);
        expect((await call(stronger, 'GET', '/api/user/me/')).json().groups[0].name).not.toBe('Readers');
        expect((await call(editor, 'GET', `/api/user/${admin.id}/set_group/${modest.id}/`)).json()).toEqual(
          SUPERUSER_ONLY,
        );
      });

      it('moving a user to a group with fewer accesses ends their sessions; to more does not', async () => {
        const fewer = await api.newGroup('Fewer', ['read_rules']);
        const more = await api.newGroup('More', ['read_rules', 'view_logs', 'delete_rules']);
        const target = await api.userWith(['read_rules', 'view_logs']);
        expect((await call(admin, 'GET', `/api/user/${target.id}/set_group/${more.id}/`)).statusCode).toBe(200);
        expect((await call(target, 'GET', '/api/user/me/')).statusCode).toBe(200);
        expect((await call(admin, 'GET', `/api/user/${target.id}/set_group/${fewer.id}/`)).statusCode).toBe(200);
        expect((await call(target, 'GET', '/api/user/me/')).statusCode).toBe(401);
        expect((await refresh(target)).statusCode).toBe(401);
      });

      it('a change that removes accesses ends the sessions of the members who lose them', async () => {
        const group = await api.newGroup('Shrinking', ['read_rules', 'view_logs']);
        const member = await api.userWith([]);
        await call(admin, 'GET', `/api/user/${member.id}/set_group/${group.id}/`);
        const renamed = await call(admin, 'PATCH', `/api/groups/${group.id}/`, {
          name: 'Still the same accesses',
          group_access: { accesses: ['read_rules', 'view_logs', 'view_folder'] },
        });
        expect(renamed.statusCode).toBe(200);
        expect((await call(member, 'GET', '/api/user/me/')).statusCode).toBe(200);
        const shrunk = await call(admin, 'PATCH', `/api/groups/${group.id}/`, {
          group_access: { accesses: ['read_rules'] },
        });
        expect(shrunk.statusCode).toBe(200);
        expect((await call(member, 'GET', '/api/user/me/')).statusCode).toBe(401);
        expect((await refresh(member)).statusCode).toBe(401);
      });

      it('nobody edits or deletes a group holding accesses they lack', async () => {
        const manager = await api.userWith(['update_permissions']);
        const group = await api.newGroup('Deleters', ['delete_rules']);
        const member = await api.userWith([]);
        await call(admin, 'GET', `/api/user/${member.id}/set_group/${group.id}/`);
        for (const [method, payload] of [
          ['PATCH', { group_access: { accesses: [] } }],
          ['DELETE', undefined],
        ] as const) {
          const response = await call(manager, method, `/api/groups/${group.id}/`, payload);
          expect(response.statusCode).toBe(403);
          expect(response.json()).toEqual({
            detail: 'You cannot change a group that holds accesses you do not hold yourself.',
          });
        }
        expect((await call(member, 'GET', '/api/user/me/')).json().groups[0].group_access.accesses).toEqual([
          'delete_rules',
        ]);
      });
    });
  });

  describe(`the last superuser and throttled confirmations on ${engine}`, () => {
    let api: TestApi;
    beforeAll(async () => {
      api = await createTestApi(engine, { config: { loginRateLimit: { max: 2, windowMs: 60_000 } } });
    });
    afterAll(() => api.close());

    it('two superusers deactivating each other at once leave one active', async () => {
      const first = await api.userWith('superuser');
      const second = await api.userWith('superuser');
      const responses = await Promise.all([
        api.request(first.token, { method: 'PATCH', url: `/api/user/${second.id}/`, payload: { is_active: false } }),
        api.request(second.token, { method: 'PATCH', url: `/api/user/${first.id}/`, payload: { is_active: false } }),
      ]);
      const active = await api.dbh.db
        .select()
        .from(users)
        .where(and(eq(users.isSuperuser, true), eq(users.isActive, true)));
      expect(active).toHaveLength(1);
      const statuses = responses.map((r) => r.statusCode).sort();
      expect(statuses[0]).toBe(200);
      expect([401, 409]).toContain(statuses[1]);
      const refused = responses.find((r) => r.statusCode === 409);
      if (refused) expect(refused.json()).toEqual({ detail: 'The last active superuser cannot be deactivated.' });
    });

    it('limits confirmation attempts per address, like the other public calls', async () => {
      const attempt = () =>
        api.app.inject({ method: 'POST', url: '/api/user/confirm_email_change/', payload: { token: 'guess' } });
      expect((await attempt()).statusCode).toBe(400);
      expect((await attempt()).statusCode).toBe(400);
      const third = await attempt();
      expect(third.statusCode).toBe(429);
      expect(third.json().detail).toMatch(/^Too many attempts\. Try again in \d+ seconds\.$/);
    });
  });
});
