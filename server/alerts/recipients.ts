/**
 * Who receives a rule's mail alerts: its folder's own recipients when the folder has any
 * (folders.alert_emails, set in the folder dialog), sent through the configured mailer; otherwise
 * the default recipients (ALERT_EMAILS, or the admin in the outbox of a setup without them).
 */
import type { Mailer } from '../mail/mailer';

export interface AlertMailing {
  /** The mailer and recipients of the default (ALERT_EMAILS; without it, the outbox and the admin). */
  mailer: Mailer;
  recipients: string[];
  /** The configured mailer (SMTP_URL, else the outbox), for a folder's own recipients; absent: `mailer`. */
  folderMailer?: Mailer;
}

export interface AlertAddressees {
  mailer: Mailer;
  to: string;
  /** The folder's own recipients (true) or the default ones. */
  folderOwn: boolean;
}

export function addresseesOf(alerts: AlertMailing, folderEmails: readonly string[] | undefined): AlertAddressees {
  if (folderEmails?.length)
    return { mailer: alerts.folderMailer ?? alerts.mailer, to: folderEmails.join(', '), folderOwn: true };
  return { mailer: alerts.mailer, to: alerts.recipients.join(', '), folderOwn: false };
}
