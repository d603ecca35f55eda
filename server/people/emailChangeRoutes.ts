/** /api/user/confirm_email_change/: the link mailed to a new address, opened from /confirm-email-change/{token}. */
import type { FastifyInstance } from 'fastify';
import { emailChangeConfirmSchema } from '../../src/domain/people';
import { byAddress, limitAttempts } from '../http/attemptLimit';
import { parseBody } from '../http/validation';
import { mailerOf } from '../mail/mailer';
import { confirmEmailChange } from './emailChanges';
import { emailChangedMail } from './mails';

export default async function emailChangeRoutes(app: FastifyInstance) {
  /** The new address takes effect; every session of the account ends and the old address is told. */
  app.post(
    '/user/confirm_email_change/',
    { config: { public: true }, preHandler: limitAttempts(app, 'email-confirm', [{ key: byAddress }]) },
    async (request) => {
      const { token } = parseBody(emailChangeConfirmSchema, request.body);
      const { userId, oldEmail, newEmail } = await confirmEmailChange(app.db, token);
      await app.tokens.endSessions(userId, 'email');
      void mailerOf(app)
        .send(emailChangedMail(oldEmail, newEmail))
        .catch((error) => request.log.error({ err: error }, 'e-mail changed notice failed'));
      return { detail: 'E-mail address changed. Sign in with the new address.', email: newEmail };
    },
  );
}
