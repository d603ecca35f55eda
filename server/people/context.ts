/** What the people services need beyond the database: sessions to end, mail to send, the public address. */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { TokenService } from '../auth/tokens';
import type { Database } from '../db/client';
import type { Mailer } from '../mail/mailer';

export interface PeopleContext {
  db: Database;
  tokens: Pick<TokenService, 'endSessions'>;
  mailer: Mailer;
  /** Where mailed links point (PUBLIC_URL). */
  publicUrl: string;
  log: FastifyBaseLogger;
}

export const peopleContext = (app: FastifyInstance, log: FastifyBaseLogger = app.log): PeopleContext => ({
  db: app.db,
  tokens: app.tokens,
  mailer: app.mailer,
  publicUrl: app.config.publicUrl,
  log,
});
