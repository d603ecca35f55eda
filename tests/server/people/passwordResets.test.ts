import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordResets } from '../../../server/db/schema/index';
import { createTestApi, deactivate, type TestApi, type TestUser } from '../../support/api';
import { eachDatabase } from '../../support/db';
import { linkPath, apiMailingThroughSmtp, type MailingApi, type SmtpPeer } from '../mail/support';

const PUBLIC_URL = 'https://console.example.com';

eachDatabase((engine) => {
  describe(`password reset on ${engine}, mailed through a real SMTP server`, () => {
    let mailing: MailingApi;
    let peer: SmtpPeer;
    let api: TestApi;
    beforeAll(async () => {
      mailing = await apiMailingThroughSmtp(engine, PUBLIC_URL);
      ({ api, peer } = mailing);
    });
    afterAll(() => mailing.close());

    const requestReset = (email: string) =>
      api.app.inject({ method: 'POST', url: '/api/user/send_password_reset/', payload: { email } });
    const confirm = (payload: object) =>
      api.app.inject({ method: 'POST', url: '/api/user/set_password_reset/', payload });
    const login = (email: string, password: string) =>
      api.app.inject({ method: 'POST', url: '/api/token/', payload: { email, password } });

    async function mailedToken(user: TestUser): Promise<string> {
      const response = await requestReset(user.email);
      expect(response.statusCode).toBe(200);
      const mail = await peer.waitFor(user.email);
      peer.messages.splice(peer.messages.indexOf(mail), 1);
      const [route, token] = linkPath(mail.links[0]!);
      expect(route).toBe('confirm-password-reset');
      return token!;
    }

    it('mails a link; following it sets the password and signs the user out everywhere', async () => {
      const user = await api.userWith([]);
      const response = await requestReset(user.email.toUpperCase());
      expect(response.json()).toEqual({ detail: 'Reset password link has been sent to your email' });
      const mail = await peer.waitFor(user.email);
      expect(mail.subject).toBe('Reset your Ad Rules Console password');
      expect(mail.links).toHaveLength(1);
      expect(mail.links[0]).toMatch(new RegExp(`^${PUBLIC_URL}/confirm-password-reset/[A-Za-z0-9_-]{40,}$`));
      expect(mail.html).toContain(`href="${mail.links[0]}"`);
      expect(mail.text).toContain('expires in 1 hour');
      peer.messages.splice(peer.messages.indexOf(mail), 1);

      const [, token] = linkPath(mail.links[0]!);
      const done = await confirm({ token, password: 'fresh-password', password2: 'fresh-password' });
      expect(done.statusCode).toBe(200);
      expect((await login(user.email, user.password)).statusCode).toBe(401);
      expect((await login(user.email, 'fresh-password')).statusCode).toBe(200);
      const refresh = await api.app.inject({
        method: 'POST',
        url: '/api/token/refresh/',
        payload: { refresh: user.refresh },
      });
      expect(refresh.statusCode).toBe(401);
    });

    it('answers the same for an address with no account, and mails nothing to it', async () => {
      const stranger = `nobody-${engine}@example.com`;
      const response = await requestReset(stranger);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ detail: 'Reset password link has been sent to your email' });
      // A known address asked after it gets its mail; by then a mail to the stranger would have come first.
      const known = await api.userWith([]);
      await mailedToken(known);
      expect(peer.messages.some((m) => m.to.includes(stranger))).toBe(false);
    });

    it('mails nothing to a deactivated account', async () => {
      const inactive = await api.userWith([]);
      await deactivate(api, inactive.id);
      expect((await requestReset(inactive.email)).statusCode).toBe(200);
      const known = await api.userWith([]);
      await mailedToken(known);
      expect(peer.messages.some((m) => m.to.includes(inactive.email))).toBe(false);
    });

    it('works once, and using one link spends the older ones too', async () => {
      const user = await api.userWith([]);
      const older = await mailedToken(user);
      const newer = await mailedToken(user);
      expect((await confirm({ token: newer, password: 'password-one', password2: 'password-one' })).statusCode).toBe(
        200,
      );
      const reuse = await confirm({ token: newer, password: 'password-two', password2: 'password-two' });
      expect(reuse.statusCode).toBe(400);
      expect(reuse.json()).toEqual({ token: ['This password reset link has already been used.'] });
      expect((await confirm({ token: older, password: 'password-two', password2: 'password-two' })).statusCode).toBe(
        400,
      );
      expect((await login(user.email, 'password-one')).statusCode).toBe(200);
    });

    it('expires after 1 hour', async () => {
      const user = await api.userWith([]);
      const token = await mailedToken(user);
      const [row] = await api.dbh.db.select().from(passwordResets).where(eq(passwordResets.userId, user.id));
      expect(Math.round((row!.expiresAt.getTime() - row!.createdAt.getTime()) / 60_000)).toBe(60);
      expect(row!.tokenHash).not.toBe(token);
      await api.dbh.db
        .update(passwordResets)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(passwordResets.userId, user.id));
      const response = await confirm({ token, password: 'late-password', password2: 'late-password' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ token: ['This password reset link has expired. Request a new one.'] });
      expect((await login(user.email, user.password)).statusCode).toBe(200);
    });

    it('answers the contract validation messages', async () => {
      expect((await requestReset('not-an-email')).json()).toEqual({ email: ['E-mail must be valid'] });
      expect((await requestReset('')).json()).toEqual({ email: ['Field is required'] });
      const response = await confirm({ token: 'whatever', password: 'short', password2: 'different-one' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        password: ['Password must be at least 8 characters'],
        password2: ['Passwords must match'],
      });
      expect(
        (await confirm({ token: 'unknown-token', password: 'long-enough', password2: 'long-enough' })).json(),
      ).toEqual({
        token: ['This password reset link is not valid.'],
      });
    });

    it('limits reset requests per address, like login attempts', async () => {
      const limited = await createTestApi(engine, {
        config: { loginRateLimit: { max: 2, windowMs: 60_000 } },
        services: { mailer: mailing.mailer },
      });
      try {
        const ask = () =>
          limited.app.inject({
            method: 'POST',
            url: '/api/user/send_password_reset/',
            payload: { email: 'flood@example.com' },
          });
        expect((await ask()).statusCode).toBe(200);
        expect((await ask()).statusCode).toBe(200);
        const third = await ask();
        expect(third.statusCode).toBe(429);
        expect(third.json().detail).toMatch(/^Too many attempts\. Try again in \d+ seconds\.$/);
      } finally {
        await limited.close();
      }
    });
  });
});
