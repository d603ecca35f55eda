/**
 * No path back into an account (docs/security.md): a pending e-mail change dies with a password
 * change or reset, with the deactivation of whoever asked for it or of its account, and by an
 * explicit cancel; only a superuser moves another member's address; an e-mail change spends the
 * reset links mailed to the old address; password checks behind sign-in are throttled like
 * sign-in. Mail goes through a real SMTP server.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { FREE_FAILURES } from '../../../server/auth/loginFailures';
import { emailChanges, users } from '../../../server/db/schema/index';
import type { TestApi, TestUser } from '../../support/api';
import { eachDatabase } from '../../support/db';
import { withMailingApi, linkPath, type ReceivedMail, type SmtpPeer } from '../mail/support';

const PUBLIC_URL = 'https://console.example.com';
const INVALID_LINK = { token: ['This e-mail confirmation link is not valid.'] };

eachDatabase((engine) => {
  describe(`pending e-mail changes and password checks on ${engine}`, () => {
    let peer: SmtpPeer;
    let api: TestApi;
    let admin: TestUser;
    let counter = 0;
    withMailingApi(engine, PUBLIC_URL, (fixture) => ({ api, peer, admin } = fixture));

    const call = (user: TestUser, method: 'GET' | 'PATCH' | 'POST' | 'DELETE', url: string, payload?: object) =>
      api.request(user.token, { method, url, ...(payload && { payload }) });
    const publicCall = (url: string, payload: object) => api.app.inject({ method: 'POST', url, payload });
    const confirm = (token: string) => publicCall('/api/user/confirm_email_change/', { token });
    const login = (email: string, password: string) => publicCall('/api/token/', { email, password });
    const freshAddress = () => {
      counter += 1;
      return `lifetime${counter}-${engine}@example.com`;
    };
    const emailOf = async (id: number) =>
      (await api.dbh.db.select({ email: users.email }).from(users).where(eq(users.id, id)))[0]!.email;
    const pendingRows = (id: number) => api.dbh.db.select().from(emailChanges).where(eq(emailChanges.userId, id));

    async function mailTo(to: string, subject: RegExp): Promise<ReceivedMail> {
      const found = await peer.waitForMail(
        (m) => m.to.includes(to) && subject.test(m.subject),
        `mail "${subject}" to ${to}`,
      );
      peer.messages.splice(peer.messages.indexOf(found), 1);
      return found;
    }
    const tokenIn = (mail: ReceivedMail) => linkPath(mail.links[0]!)[1]!;

    /** An e-mail change of `target` asked for by `by` (a superuser, or the target with its password); its token. */
    async function pendingChange(by: TestUser, target: TestUser): Promise<{ token: string; newEmail: string }> {
      const newEmail = freshAddress();
      const payload =
        by.id === target.id ? { email: newEmail, current_password: target.password } : { email: newEmail };
      const response = await call(by, 'PATCH', `/api/user/${target.id}/`, payload);
      expect(response.statusCode, response.body).toBe(200);
      return { token: tokenIn(await mailTo(newEmail, /^Confirm/)), newEmail };
    }

    describe("another member's address", () => {
      it('is changed only by a superuser: a team admin holding the same accesses cannot move a peer', async () => {
        const peerAdmin = await api.userWith(['add_edit_users', 'read_rules']);
        const teamAdmin = await api.userWith(['add_edit_users', 'read_rules']);
        const takeover = freshAddress();
        const refused = await call(teamAdmin, 'PATCH', `/api/user/${peerAdmin.id}/`, { email: takeover });
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toEqual({ detail: "Only a superuser can change another member's e-mail address." });
        expect(await pendingRows(peerAdmin.id)).toEqual([]);
        expect(peer.messages.some((m) => m.to.includes(takeover))).toBe(false);
        // The rest of the account is still the team admin's to change.
        const renamed = await call(teamAdmin, 'PATCH', `/api/user/${peerAdmin.id}/`, { first_name: 'Peer' });
        expect(renamed.statusCode).toBe(200);
        // A superuser may, and the change still waits for the new address.
        const { token, newEmail } = await pendingChange(admin, peerAdmin);
        expect((await confirm(token)).statusCode).toBe(200);
        expect(await emailOf(peerAdmin.id)).toBe(newEmail);
      });
    });

    describe('a pending change is withdrawn', () => {
      it('by a password change: the link no longer works', async () => {
        const user = await api.userWith([]);
        const { token } = await pendingChange(admin, user);
        const changed = await call(user, 'POST', '/api/user/change_password/', {
          old_password: user.password,
          new_password: 'a-new-password-1',
          new_password2: 'a-new-password-1',
        });
        expect(changed.statusCode, changed.body).toBe(200);
        expect(await pendingRows(user.id)).toEqual([]);
        expect((await confirm(token)).json()).toEqual(INVALID_LINK);
        expect(await emailOf(user.id)).toBe(user.email);
      });

      it('by a password reset: the link no longer works', async () => {
        const user = await api.userWith([]);
        const { token } = await pendingChange(user, user);
        await mailTo(user.email, /was requested$/);
        expect((await publicCall('/api/user/send_password_reset/', { email: user.email })).statusCode).toBe(200);
        const resetToken = tokenIn(await mailTo(user.email, /^Reset/));
        const reset = await publicCall('/api/user/set_password_reset/', {
          token: resetToken,
          password: 'reset-password-1',
          password2: 'reset-password-1',
        });
        expect(reset.statusCode, reset.body).toBe(200);
        expect((await confirm(token)).json()).toEqual(INVALID_LINK);
        expect(await emailOf(user.id)).toBe(user.email);
      });

      it('by deactivating the account, or whoever asked for the change', async () => {
        const target = await api.userWith([]);
        const { token: targetsToken } = await pendingChange(admin, target);
        expect((await call(admin, 'PATCH', `/api/user/${target.id}/`, { is_active: false })).statusCode).toBe(200);
        expect(await pendingRows(target.id)).toEqual([]);
        expect((await confirm(targetsToken)).json()).toEqual(INVALID_LINK);

        const requester = await api.userWith('superuser');
        const victim = await api.userWith([]);
        const { token } = await pendingChange(requester, victim);
        expect((await call(admin, 'PATCH', `/api/user/${requester.id}/`, { is_active: false })).statusCode).toBe(200);
        expect((await confirm(token)).json()).toEqual(INVALID_LINK);
        expect(await emailOf(victim.id)).toBe(victim.email);
      });

      it('by the owner (or whoever may manage the account) through /api/user/{id}/email_change/', async () => {
        const user = await api.userWith([], { firstName: 'Olga', lastName: 'Owner' });
        expect((await call(user, 'GET', `/api/user/${user.id}/email_change/`)).json()).toEqual({ pending: null });
        const { token, newEmail } = await pendingChange(admin, user);
        const shown = await call(user, 'GET', `/api/user/${user.id}/email_change/`);
        expect(shown.statusCode).toBe(200);
        expect(shown.json().pending).toMatchObject({ new_email: newEmail, requested_by: 'Ada Admin' });

        const stranger = await api.userWith(['read_rules']);
        const weakAdmin = await api.userWith(['add_edit_users']);
        for (const someone of [stranger, weakAdmin]) {
          for (const method of ['GET', 'DELETE'] as const) {
            const refused = await call(someone, method, `/api/user/${admin.id}/email_change/`);
            expect(refused.statusCode, `${method} by ${someone.id}`).toBe(403);
          }
        }
        expect((await call(stranger, 'DELETE', `/api/user/${user.id}/email_change/`)).statusCode).toBe(403);
        expect(await pendingRows(user.id)).toHaveLength(1);

        const withdrawn = await call(user, 'DELETE', `/api/user/${user.id}/email_change/`);
        expect(withdrawn.statusCode).toBe(204);
        expect((await confirm(token)).json()).toEqual(INVALID_LINK);
        expect((await call(user, 'DELETE', `/api/user/${user.id}/email_change/`)).statusCode).toBe(404);
        const log = await call(admin, 'GET', '/api/log/?search=Withdrew');
        expect(log.json().results[0].action).toBe('Withdrew the e-mail change of user Olga Owner');
      });
    });

    it('an e-mail change spends the reset links mailed to the old address', async () => {
      const user = await api.userWith([]);
      expect((await publicCall('/api/user/send_password_reset/', { email: user.email })).statusCode).toBe(200);
      const oldLink = tokenIn(await mailTo(user.email, /^Reset/));
      const { token, newEmail } = await pendingChange(admin, user);
      expect((await confirm(token)).statusCode).toBe(200);
      const reset = await publicCall('/api/user/set_password_reset/', {
        token: oldLink,
        password: 'taken-over-1',
        password2: 'taken-over-1',
      });
      expect(reset.statusCode).toBe(400);
      expect(reset.json()).toEqual({ token: ['This password reset link has already been used.'] });
      expect((await login(newEmail, 'taken-over-1')).statusCode).toBe(401);
      expect((await login(newEmail, user.password)).statusCode).toBe(200);
    });

    describe('password checks of a signed-in user are throttled per account like sign-in', () => {
      const wrongGuesses = async (guess: (n: number) => Promise<{ statusCode: number }>) => {
        const statuses: number[] = [];
        for (let n = 0; n < FREE_FAILURES + 3; n += 1) statuses.push((await guess(n)).statusCode);
        return statuses;
      };
      const throttled = [...Array(FREE_FAILURES).fill(400), 429, 429, 429];

      it('old_password on change_password', async () => {
        const user = await api.userWith([]);
        const change = (old: string) =>
          call(user, 'POST', '/api/user/change_password/', {
            old_password: old,
            new_password: 'another-password-1',
            new_password2: 'another-password-1',
          });
        expect(await wrongGuesses((n) => change(`wrong-guess-${n}`))).toEqual(throttled);
        const right = await change(user.password);
        expect(right.statusCode).toBe(429);
        expect(right.json().detail).toMatch(/^Too many wrong passwords for this account\. Try again in \d+ seconds\.$/);
        // The same count as sign-in: the account's sign-in waits too.
        expect((await login(user.email, user.password)).statusCode).toBe(429);
      });

      it('current_password on an own e-mail change', async () => {
        const user = await api.userWith([]);
        const move = (password: string) =>
          call(user, 'PATCH', `/api/user/${user.id}/`, { email: freshAddress(), current_password: password });
        expect(await wrongGuesses((n) => move(`wrong-guess-${n}`))).toEqual(throttled);
        expect((await move(user.password)).statusCode).toBe(429);
        expect(await pendingRows(user.id)).toEqual([]);
      });
    });
  });
});
