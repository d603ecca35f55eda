/** /api/user/confirm_email_change/: the link mailed to a new address, opened from /confirm-email-change/{token}. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { emailChangeConfirmSchema } from '../../src/domain/people';
import { byAddress, limitAttempts } from '../http/attemptLimit';
import { errors } from '../http/schemas';
import { confirmEmailChange } from './emailChanges';
import { emailChangedMail } from './mails';
import { tags } from './schemas';

const emailChangeRoutes: FastifyPluginAsyncZod = async (app) => {
  /** The new address takes effect; every session of the account ends and the old address is told. */
  app.post(
    '/user/confirm_email_change/',
    {
      config: { public: true },
      preValidation: limitAttempts(app, 'email-confirm', [{ key: byAddress }]),
      schema: {
        tags,
        body: emailChangeConfirmSchema,
        response: { 200: z.object({ detail: z.string(), email: z.string() }), ...errors(400, 429) },
      },
    },
    async (request) => {
      const { userId, oldEmail, newEmail } = await confirmEmailChange(app.db, request.body.token);
      await app.tokens.endSessions(userId, 'email');
      void app.mailer
        .send(emailChangedMail(oldEmail, newEmail))
        .catch((error) => request.log.error({ err: error }, 'e-mail changed notice failed'));
      return { detail: 'E-mail address changed. Sign in with the new address.', email: newEmail };
    },
  );
};

export default emailChangeRoutes;
