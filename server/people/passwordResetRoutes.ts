/** /api/user/send_password_reset/ and /api/user/set_password_reset/: a forgotten password, by mail. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { passwordResetConfirmSchema, passwordResetRequestSchema } from '../../shared/validation';
import { byAddress, byEmail, limitAttempts } from '../http/attemptLimit';
import { detailSchema, errors } from '../http/schemas';
import { peopleDeps } from './deps';
import { createPasswordResetStore } from './passwordResets';
import { tags } from './schemas';

export const RESET_SENT = 'Reset password link has been sent to your email';

const passwordResetRoutes: FastifyPluginAsyncZod = async (app) => {
  const store = createPasswordResetStore(app.db, peopleDeps(app));

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
      await store.request(request.body.email, request.log);
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
      await store.complete(request.body.token, request.body.password);
      return { detail: 'Password has been reset. Sign in with the new password.' };
    },
  );
};

export default passwordResetRoutes;
