/**
 * Engine mail sent once per (rule, slot, kind): alert digests and held-run alerts.
 *
 * Like a turn-off, the mail is claimed before it goes out: its activity entry is written `pending`
 * with the whole message (the unique index rule_activity_mail_once allows one per rule, slot and
 * kind), then sent, then marked done. A retry after a crash finds the entry: done → nothing to do;
 * still pending → the stored message goes out again with the same Message-ID, so receivers treat
 * the two deliveries as one mail (SMTP cannot confirm more than that), and the digest never grows
 * or changes between attempts.
 */
import { randomBytes } from 'node:crypto';
import type { Database } from '../db/client';
import type { MailMessage, Mailer } from '../mail/mailer';
import { createActivityStore, type ActivityRow, type MailClaim } from '../activity/entries';

export interface Composed {
  message: Omit<MailMessage, 'messageId'>;
  reason: Record<string, string>;
}

export interface MailOnce extends MailClaim {
  /**
   * Builds the message once the entry is claimed (its created_at is the digest's cut-off); null:
   * nothing to send, the claim is withdrawn. A retry after the message was stored sends that one.
   */
  compose(claim: ActivityRow): Promise<Composed | null>;
}

export type MailOnceResult =
  | { status: 'sent'; entry: ActivityRow }
  | { status: 'already_sent'; entry: ActivityRow }
  | { status: 'nothing_to_send' };

function messageIdFor(mail: Pick<MailOnce, 'ruleId' | 'slot' | 'action'>, sender: string): string {
  const domain = /@([^>\s]+)/.exec(sender)?.[1] ?? 'localhost';
  return `<${mail.action}.${mail.ruleId}.${mail.slot.getTime()}.${randomBytes(4).toString('hex')}@${domain}>`;
}

export async function sendOnce(
  db: Database,
  mailer: Mailer,
  mail: MailOnce,
  sender = 'localhost',
): Promise<MailOnceResult> {
  const activity = createActivityStore(db);
  let entry = await activity.claimMail(mail);
  if (entry.state === 'done') return { status: 'already_sent', entry };
  if (!entry.mail) {
    const composed = await mail.compose(entry);
    if (!composed) {
      await activity.withdrawMail(entry.id);
      return { status: 'nothing_to_send' };
    }
    const stored = { ...composed.message, messageId: messageIdFor(mail, sender) };
    entry = await activity.keepMail(entry.id, stored, composed.reason);
  }
  await mailer.send(entry.mail!);
  const done = await activity.markMailSent(entry.id);
  return { status: 'sent', entry: done };
}
