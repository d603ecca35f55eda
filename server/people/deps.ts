/** What the people stores are made from: the database, sessions to end or open, mail to send, the public address. */
import type { FastifyInstance } from 'fastify';
import type { TokenService } from '../auth/tokens';
import type { Database } from '../db/client';
import type { Mailer } from '../mail/mailer';

export interface PeopleDeps {
  db: Database;
  tokens: Pick<TokenService, 'endSessions' | 'issue'>;
  mailer: Mailer;
  /** Where mailed links point (PUBLIC_URL). */
  publicUrl: string;
}

export const peopleDeps = (app: FastifyInstance): PeopleDeps => ({
  db: app.db,
  tokens: app.tokens,
  mailer: app.mailer,
  publicUrl: app.config.publicUrl,
});
