/** A real SMTP server for tests: it accepts every message and parses it with postal-mime. */
import { SMTPServer } from 'smtp-server';
import PostalMime from 'postal-mime';
import { createMailer, linksIn, type Mailer } from '../../../server/mail/mailer';
import { afterAll, beforeAll } from 'vitest';
import { createTestApi, type TestApi, type TestUser } from '../../support/api';
import type { Engine } from '../../support/db';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  links: string[];
}

export interface SmtpPeer {
  url: string;
  messages: ReceivedMail[];
  /** Resolves with the first message to `to` (already received or still to come). */
  waitFor(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  /** Resolves with the first message that matches (already received or still to come). */
  waitForMail(matches: (mail: ReceivedMail) => boolean, what: string, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startSmtpPeer(): Promise<SmtpPeer> {
  const messages: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        try {
          const parsed = await PostalMime.parse(Buffer.concat(chunks));
          const text = parsed.text ?? '';
          messages.push({
            from: parsed.from?.address ?? '',
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            subject: parsed.subject ?? '',
            text,
            html: parsed.html ?? '',
            links: linksIn(text),
          });
          for (const wake of waiters.splice(0)) wake();
          callback();
        } catch (error) {
          callback(error as Error);
        }
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };

  const waitForMail = (matches: (mail: ReceivedMail) => boolean, what: string, timeoutMs = 10_000) =>
    new Promise<ReceivedMail>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (waiters.includes(look)) waiters.splice(waiters.indexOf(look), 1);
        reject(new Error(`no ${what} arrived in ${timeoutMs} ms`));
      }, timeoutMs);
      // Looked for now, and again as each message arrives.
      function look() {
        const found = messages.find(matches);
        if (!found) waiters.push(look);
        else {
          clearTimeout(timer);
          resolve(found);
        }
      }
      look();
    });
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor: (to, timeoutMs) => waitForMail((m) => m.to.includes(to.toLowerCase()), `mail to ${to}`, timeoutMs),
    waitForMail,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The path part of a mailed link, e.g. /join/abc → ['join', 'abc']. */
export const linkPath = (link: string) => new URL(link).pathname.split('/').filter(Boolean).map(decodeURIComponent);

export interface MailingApi {
  api: TestApi;
  peer: SmtpPeer;
  /** The mailer the API sends with, for another API in the same test to share. */
  mailer: Mailer;
  /** Closes the API, its mailer and the SMTP peer. */
  close(): Promise<void>;
}

/** The API whose mail goes through a real SMTP peer, its links pointing at `publicUrl`. */
export async function apiMailingThroughSmtp(engine: Engine, publicUrl: string): Promise<MailingApi> {
  const peer = await startSmtpPeer();
  const mailer = createMailer({
    smtpUrl: peer.url,
    from: 'Ad Rules Console <robot@example.com>',
    outboxDir: '/nonexistent',
  });
  const api = await createTestApi(engine, { config: { publicUrl }, services: { mailer } });
  return {
    api,
    peer,
    mailer,
    async close() {
      await api.close();
      await mailer.close();
      await peer.close();
    },
  };
}

export interface MailingFixture {
  api: TestApi;
  peer: SmtpPeer;
  /** A superuser, Ada Admin. */
  admin: TestUser;
}

/**
 * Inside a describe: before its tests, the API mailing through a real SMTP peer and its superuser,
 * handed to `ready`; closed after them.
 */
export function withMailingApi(engine: Engine, publicUrl: string, ready: (fixture: MailingFixture) => void) {
  let mailing: MailingApi | undefined;
  beforeAll(async () => {
    mailing = await apiMailingThroughSmtp(engine, publicUrl);
    const admin = await mailing.api.userWith('superuser', { firstName: 'Ada', lastName: 'Admin' });
    ready({ api: mailing.api, peer: mailing.peer, admin });
  });
  afterAll(() => mailing?.close());
}
