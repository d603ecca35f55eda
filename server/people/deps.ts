/** What the people stores need beside the database: sessions to end or open, mail to send, the public address. */
import type { FastifyInstance } from 'fastify';
import type { TokenService } from '../auth/tokens';
import type { Mailer } from '../mail/mailer';

export interface PeopleDeps {
  tokens: Pick<TokenService, 'endSessions' | 'issue'>;
  mailer: Mailer;
  /** Where mailed links point (PUBLIC_URL). */
  publicUrl: string;
}

export const peopleDeps = (app: FastifyInstance): PeopleDeps => ({
  tokens: app.tokens,
  mailer: app.mailer,
  publicUrl: app.config.publicUrl,
});
