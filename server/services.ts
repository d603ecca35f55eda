/**
 * Services the routes use beyond the database and tokens. Each feature adds its own field;
 * tests pass their own instances to buildApp.
 */
import type { Mailer } from './mail/mailer';

export interface AppServices {
  [name: string]: unknown;
  /** Outgoing mail (SMTP or the data dir's outbox). */
  mailer: Mailer;
}
