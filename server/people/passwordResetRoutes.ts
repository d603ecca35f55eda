/** /api/user/send_password_reset/ and /api/user/set_password_reset/: a forgotten password, by mail. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { passwordResetConfirmSchema, passwordResetRequestSchema } from '../../src/domain/validation';
import { byAddress, byEmail, limitAttempts } from '../http/attemptLimit';
import { detailSchema, errors } from '../http/schemas';
import { passwordResetLink, passwordResetMail } from './mails';
import { completePasswordReset, createPasswordReset } from './passwordResets';
import { tags } from './schemas';
import { findUserByEmail, findUserById } from './users';
import { clearFailures } from '../auth/loginFailures';

export const RESET_SENT = 'Reset password link has been sent to your email';

const passwordResetRoutes: FastifyPluginAsyncZod = async (app) => {
  /**
   * Answers the same whether or not the address has an account; the mail is sent after the answer,
   * so the time taken does not tell either.
   */
  app.post(
    '/user/send_password_reset/',
    {
      config: { public: true },
      preValidation: limitAttempts(app, 'reset-request', [{ key: byEmail }, { key: byAddress }]),
      schema: { tags, body: passwordResetRequestSchema, response: { 200: detailSchema, ...errors(400, 429) } },
    },
    async (request) => {
      const user = await findUserByEmail(app.db, request.body.email);
      if (user?.isActive) {
        const token = await createPasswordReset(app.db, user.id);
        const mail = passwordResetMail(user.email, passwordResetLink(app.config.publicUrl, token));
        void app.mailer
          .send(mail)
          .catch((error: unknown) => request.log.error({ err: error }, 'password reset mail failed'));
      }
      return { detail: RESET_SENT };
    },
  );

  app.post(
    '/user/set_password_reset/',
    {
      config: { public: true },
      preValidation: limitAttempts(app, 'reset-confirm', [{ key: byAddress }]),
      schema: { tags, body: passwordResetConfirmSchema, response: { 200: detailSchema, ...errors(400, 429) } },
    },
    async (request) => {
      const { token, password } = request.body;
      const userId = await completePasswordReset(app.db, token, password);
      await app.tokens.endSessions(userId, 'password');
      const user = await findUserById(app.db, userId);
      if (user) await clearFailures(app.db, user.email); // the owner proved who they are
      return { detail: 'Password has been reset. Sign in with the new password.' };
    },
  );
};

export default passwordResetRoutes;
