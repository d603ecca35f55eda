/**
 * Outgoing mail through nodemailer: SMTP when SMTP_URL is set; otherwise every message is written
 * as an .eml file under <DATA_DIR>/outbox/ (readable by the server's user only: invitation and
 * reset links are secrets), and the file's name is logged — never its links — so a newcomer can
 * follow an invitation or a password reset with no mail server at all.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** A stable Message-ID (`<…@…>`): a retried send carries the same one, so receivers see one mail. */
  messageId?: string;
}

export interface SentMail {
  messageId: string;
  /** The .eml file, when the message went to the outbox instead of an SMTP server. */
  file?: string;
}

export interface Mailer {
  readonly mode: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<SentMail>;
  close(): Promise<void>;
}

export interface MailerOptions {
  smtpUrl?: string;
  from: string;
  /** Where .eml files go when there is no SMTP server. */
  outboxDir: string;
  log?: (line: string) => void;
}

export const linksIn = (text: string): string[] => [...text.matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0]);

/** A sortable, unique file name: the time first, so `ls` shows messages in the order they were sent. */
const outboxFileName = () => `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;

export function createMailer(options: MailerOptions): Mailer {
  const log = options.log ?? ((line: string) => console.log(line));

  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      mode: 'smtp',
      async send(message) {
        const info = await transport.sendMail({ from: options.from, ...message });
        return { messageId: info.messageId };
      },
      async close() {
        transport.close();
      },
    };
  }

  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    mode: 'outbox',
    async send(message) {
      const info = await transport.sendMail({ from: options.from, ...message });
      await mkdir(options.outboxDir, { recursive: true, mode: 0o700 });
      const file = path.join(options.outboxDir, outboxFileName());
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      log(`Mail "${message.subject}" to ${message.to} saved as ${file}`);
      return { messageId: info.messageId, file };
    },
    async close() {
      transport.close();
    },
  };
}

/** The product's mailer as configured: SMTP_URL and MAIL_FROM, else the data dir's outbox. */
export function mailerFromConfig(
  config: { smtpUrl?: string; mailFrom: string; dataDir: string },
  log?: (line: string) => void,
): Mailer {
  return createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: path.join(config.dataDir, 'outbox'),
    log,
  });
}
