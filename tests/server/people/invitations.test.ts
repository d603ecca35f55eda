import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, invitations } from '../../../server/db/schema/index';
import { MESSAGES } from '../../../shared/validation';
import { createMailer } from '../../../server/mail/mailer';
import { createTestApi, type TestApi, type TestUser } from '../../support/api';
import { eachDatabase } from '../../support/db';
import { linkPath, withMailingApi, type SmtpPeer } from '../mail/support';

const PUBLIC_URL = 'https://console.example.com';

eachDatabase((engine) => {
  describe(`invitations on ${engine}, mailed through a real SMTP server`, () => {
    let peer: SmtpPeer;
    let api: TestApi;
    let admin: TestUser;
    let counter = 0;
    withMailingApi(engine, PUBLIC_URL, (fixture) => ({ api, peer, admin } = fixture));

    const invite = (user: TestUser, payload: object) =>
      api.request(user.token, { method: 'POST', url: '/api/user_invite/send_invite_code/', payload });
    const join = (payload: object) => api.app.inject({ method: 'POST', url: '/api/user_invite/', payload });
    const pendingList = (user: TestUser) => api.request(user.token, { method: 'GET', url: '/api/user_invite/' });
    const pendingFor = async (email: string) =>
      (pendingList(admin).then((r) => r.json().results) as Promise<{ id: string; email: string }[]>).then((list) =>
        list.find((entry) => entry.email === email),
      );
    const newcomer = () => {
      counter += 1;
      return `newcomer${counter}-${engine}@example.com`;
    };
    const member = (invite_code: string) => ({
      first_name: 'Nina',
      last_name: 'New',
      phone: '+44 1234 5678',
      password: 'nina-password',
      password2: 'nina-password',
      invite_code,
    });

    /** Sends an invitation as the admin and returns the code from the link in the received mail. */
    async function invitedCode(email: string, groupId: number): Promise<string> {
      expect((await invite(admin, { group_id: groupId, email })).statusCode).toBe(200);
      const mail = await peer.waitFor(email);
      const [route, code] = linkPath(mail.links[0]!);
      expect(route).toBe('join');
      return code!;
    }

    it('mails a join link; following it creates the active user in the group, who sees only what it allows', async () => {
      const group = await api.newGroup('Viewers', ['view_permissions', 'read_rules']);
      const email = newcomer();
      const response = await invite(admin, { group_id: group.id, email: email.toUpperCase() });
      expect(response.statusCode).toBe(200);
      // The answer is the pending invitation, as Team lists it (the browser's invitations resource keeps it).
      expect(response.json()).toMatchObject({
        detail: 'Invitation sent successfully',
        invitation: { email, group: { id: group.id, name: 'Viewers' }, invited_by: 'Ada Admin', is_expired: false },
      });
      expect((await pendingFor(email))?.id).toBe(response.json().invitation.id);

      const mail = await peer.waitFor(email);
      expect(mail.from).toBe('robot@example.com');
      expect(mail.subject).toBe('You are invited to Ad Rules Console');
      expect(mail.text).toContain('Ada Admin invited you');
      expect(mail.text).toContain('permission group: Viewers');
      expect(mail.links).toHaveLength(1);
      expect(mail.links[0]).toMatch(new RegExp(`^${PUBLIC_URL}/join/[A-Za-z0-9_-]{40,}$`));
      expect(mail.html).toContain(`href="${mail.links[0]}"`);

      const [, code] = linkPath(mail.links[0]!);
      const joined = await join(member(code!));
      expect(joined.statusCode).toBe(201);
      expect(joined.json()).toEqual({ detail: 'Invitation confirmed successfully', email });

      const login = await api.app.inject({
        method: 'POST',
        url: '/api/token/',
        payload: { email, password: 'nina-password' },
      });
      expect(login.statusCode).toBe(200);
      const token = login.json().access as string;
      const me = (await api.request(token, { method: 'GET', url: '/api/user/me/' })).json();
      expect(me).toMatchObject({
        email,
        first_name: 'Nina',
        last_name: 'New',
        phone: '+44 1234 5678',
        is_active: true,
        is_superuser: false,
      });
      expect(me.groups.map((g: { id: number }) => g.id)).toEqual([group.id]);
      // view_permissions: may look at groups; no update_permissions: may not change them; no team rights.
      expect((await api.request(token, { method: 'GET', url: '/api/groups/' })).statusCode).toBe(200);
      expect((await api.request(token, { method: 'POST', url: '/api/groups/', payload: {} })).statusCode).toBe(403);
      expect((await api.request(token, { method: 'GET', url: '/api/user/' })).statusCode).toBe(403);

      const entries = await api.dbh.db.select().from(auditLog).where(eq(auditLog.actorId, me.id));
      expect(entries.map((e) => e.action)).toEqual([`Joined the team as ${email}`]);
      const [inviteEntry] = await api.dbh.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, `Invited ${email}`));
      expect(inviteEntry).toMatchObject({ actorId: admin.id, changesText: 'group: Viewers' });
    });

    it('works once', async () => {
      const group = await api.newGroup('Once', []);
      const code = await invitedCode(newcomer(), group.id);
      expect((await join(member(code))).statusCode).toBe(201);
      const again = await join({ ...member(code), first_name: 'Someone' });
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({ invite_code: ['This invitation has already been used.'] });
    });

    it('expires after 7 days', async () => {
      const group = await api.newGroup('Late', []);
      const email = newcomer();
      const code = await invitedCode(email, group.id);
      const [row] = await api.dbh.db.select().from(invitations).where(eq(invitations.email, email));
      const week = row!.expiresAt.getTime() - row!.createdAt.getTime();
      expect(Math.round(week / 3_600_000)).toBe(7 * 24);
      await api.dbh.db
        .update(invitations)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(invitations.email, email));
      const response = await join(member(code));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ invite_code: ['This invitation has expired. Ask for a new one.'] });
    });

    it('refuses an unknown code and keeps codes out of the database', async () => {
      const group = await api.newGroup('Secret', []);
      const email = newcomer();
      const code = await invitedCode(email, group.id);
      const [row] = await api.dbh.db.select().from(invitations).where(eq(invitations.email, email));
      expect(row!.codeHash).not.toBe(code);
      const response = await join(member(row!.codeHash));
      expect(response.json()).toEqual({ invite_code: ['This invitation link is not valid.'] });
    });

    it('answers the contract validation messages for the join form', async () => {
      const response = await join({
        first_name: '',
        last_name: ' ',
        phone: '123',
        password: 'short',
        password2: 'other',
        invite_code: '',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        first_name: ['Field is required'],
        last_name: ['Field is required'],
        phone: [MESSAGES.phone],
        password: ['Password must be at least 8 characters'],
        password2: ['Password must be at least 8 characters', 'Passwords must match'],
        invite_code: ['Field is required'],
      });
    });

    it('validates the invitation and refuses an e-mail that already has an account', async () => {
      const group = await api.newGroup('Any', []);
      const missing = await invite(admin, { email: 'bad' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toEqual({ group_id: ['Field is required'], email: ['E-mail must be valid'] });
      expect((await invite(admin, { group_id: 999999, email: newcomer() })).json()).toEqual({
        group_id: ['Group not found.'],
      });

      const existing = await api.userWith([]);
      const taken = await invite(admin, { group_id: group.id, email: existing.email.toUpperCase() });
      expect(taken.statusCode).toBe(400);
      expect(taken.json()).toEqual({ email: ['A user with this e-mail already exists.'] });
      expect(peer.messages.some((m) => m.to.includes(existing.email))).toBe(false);
    });

    it('needs add_edit_users, and only into groups within the inviter’s own accesses', async () => {
      const group = await api.newGroup('Powerful', ['delete_rules', 'add_edit_users']);
      const outsider = await api.userWith(['update_permissions', 'is_staff']);
      expect((await invite(outsider, { group_id: group.id, email: newcomer() })).statusCode).toBe(403);
      const inviter = await api.userWith(['add_edit_users']);
      const beyond = await invite(inviter, { group_id: group.id, email: newcomer() });
      expect(beyond.statusCode).toBe(403);
      expect(beyond.json()).toEqual({ detail: 'You cannot grant accesses you do not hold yourself.' });
      const modest = await api.newGroup('Modest', ['add_edit_users']);
      expect((await invite(inviter, { group_id: modest.id, email: newcomer() })).statusCode).toBe(200);
    });

    describe('pending invitations', () => {
      const resend = (user: TestUser, id: string) =>
        api.request(user.token, { method: 'POST', url: `/api/user_invite/${id}/resend/` });
      const cancel = (user: TestUser, id: string) =>
        api.request(user.token, { method: 'DELETE', url: `/api/user_invite/${id}/` });
      const auditActions = async (action: string) =>
        (await api.dbh.db.select().from(auditLog).where(eq(auditLog.action, action))).map((e) => e.actor);
      /** Waits for the `n`th mail to `to` and answers its code. */
      async function nthCode(to: string, n: number): Promise<string> {
        const toThem = (mail: { to: string[] }) => mail.to.includes(to);
        await peer.waitForMail(() => peer.messages.filter(toThem).length >= n, `mail number ${n} to ${to}`);
        return linkPath(peer.messages.filter(toThem)[n - 1]!.links[0]!)[1]!;
      }

      it('lists sent, unused invitations newest first with group, inviter and expiry; a used one leaves the list', async () => {
        const group = await api.newGroup('Pending group', ['read_rules']);
        const first = newcomer();
        const second = newcomer();
        const firstCode = await invitedCode(first, group.id);
        await invitedCode(second, group.id);

        const response = await pendingList(admin);
        expect(response.statusCode).toBe(200);
        const body = response.json();
        expect(body.count).toBeGreaterThanOrEqual(2);
        const emails = body.results.map((entry: { email: string }) => entry.email);
        expect(emails.indexOf(second)).toBeLessThan(emails.indexOf(first));
        const entry = body.results.find((e: { email: string }) => e.email === second);
        expect(entry).toMatchObject({
          email: second,
          group: { id: group.id, name: 'Pending group' },
          invited_by: 'Ada Admin',
          is_expired: false,
        });
        expect(entry.id).toMatch(/^[0-9a-f]{64}$/);
        // Good for 7 days from sending (created_at is the database's clock, expires_at the server's).
        const lifetime = Date.parse(entry.expires_at) - Date.parse(entry.created_at);
        expect(Math.abs(lifetime - 7 * 24 * 60 * 60 * 1000)).toBeLessThan(60_000);

        expect((await join(member(firstCode))).statusCode).toBe(201);
        expect(await pendingFor(first)).toBeUndefined();
        expect(await pendingFor(second)).toBeDefined();
      });

      it('resends with a new code: the new link works, the old one no longer does', async () => {
        const group = await api.newGroup('Resent group', ['read_rules']);
        const email = newcomer();
        const oldCode = await invitedCode(email, group.id);
        const before = (await pendingFor(email))!;

        const response = await resend(admin, before.id);
        expect(response.statusCode).toBe(200);
        expect(response.json()).toMatchObject({
          detail: 'Invitation sent successfully',
          invitation: { email, group: { id: group.id, name: 'Resent group' } },
        });
        const newCode = await nthCode(email, 2);
        expect(newCode).not.toBe(oldCode);
        const after = (await pendingFor(email))!;
        expect(after.id).not.toBe(before.id);
        expect(response.json().invitation.id).toBe(after.id);

        const stale = await join(member(oldCode));
        expect(stale.statusCode).toBe(400);
        expect(stale.json()).toEqual({ invite_code: ['This invitation link is not valid.'] });
        expect((await join(member(newCode))).statusCode).toBe(201);
        expect(await auditActions(`Resent the invitation to ${email}`)).toEqual(['Ada Admin']);
      });

      it('cancels: the code stops working and the invitation leaves the list', async () => {
        const group = await api.newGroup('Cancelled group', []);
        const email = newcomer();
        const code = await invitedCode(email, group.id);
        const { id } = (await pendingFor(email))!;

        expect((await cancel(admin, id)).statusCode).toBe(204);
        expect(await pendingFor(email)).toBeUndefined();
        expect((await join(member(code))).json()).toEqual({ invite_code: ['This invitation link is not valid.'] });
        expect((await cancel(admin, id)).statusCode).toBe(404);
        expect((await resend(admin, id)).statusCode).toBe(404);
        expect(await auditActions(`Cancelled the invitation to ${email}`)).toEqual(['Ada Admin']);
      });

      it('each needs add_edit_users; resending and cancelling stay within the sender’s own accesses', async () => {
        const group = await api.newGroup('Guarded group', ['delete_rules']);
        const email = newcomer();
        await invitedCode(email, group.id);
        const { id } = (await pendingFor(email))!;

        const outsider = await api.userWith(['update_permissions', 'is_staff']);
        expect((await pendingList(outsider)).statusCode).toBe(403);
        expect((await resend(outsider, id)).statusCode).toBe(403);
        expect((await cancel(outsider, id)).statusCode).toBe(403);
        expect((await api.app.inject({ method: 'GET', url: '/api/user_invite/' })).statusCode).toBe(401);

        const inviter = await api.userWith(['add_edit_users']);
        expect((await pendingList(inviter)).statusCode).toBe(200);
        const beyond = await resend(inviter, id);
        expect(beyond.statusCode).toBe(403);
        expect(beyond.json()).toEqual({ detail: 'You cannot grant accesses you do not hold yourself.' });
        const cancelBeyond = await cancel(inviter, id);
        expect(cancelBeyond.statusCode).toBe(403);
        expect(cancelBeyond.json()).toEqual({ detail: 'You cannot grant accesses you do not hold yourself.' });
        expect(await pendingFor(email)).toBeDefined();
        expect((await cancel(admin, id)).statusCode).toBe(204);
        expect(await pendingFor(email)).toBeUndefined();
        expect((await resend(admin, 'not-an-invitation')).statusCode).toBe(404);
      });
    });

    it('answers 502 and keeps no usable code when the mail cannot be sent', async () => {
      const broken = createMailer({
        smtpUrl: 'smtp://127.0.0.1:1',
        from: 'robot@example.com',
        outboxDir: '/nonexistent',
      });
      const other = await createTestApi(engine, { services: { mailer: broken } });
      try {
        const boss = await other.userWith('superuser');
        const group = await other.newGroup('G', []);
        const response = await other.request(boss.token, {
          method: 'POST',
          url: '/api/user_invite/send_invite_code/',
          payload: { group_id: group.id, email: 'unlucky@example.com' },
        });
        expect(response.statusCode).toBe(502);
        expect(response.json()).toEqual({ detail: 'The invitation e-mail could not be sent. Try again later.' });
        expect(await other.dbh.db.select().from(invitations)).toEqual([]);
      } finally {
        await other.close();
      }
    });
  });
});
