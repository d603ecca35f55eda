/**
 * A one-off alert mail (a flapping object, a rule that stopped itself, a platform health problem):
 * its once-ness is the caller's (an entry or row it claimed first); this only builds and sends it
 * to the alert recipients (the folder's own, when it has any). Without alert settings (a server built without a mailer) nothing is sent.
 */
import { renderMessage } from '../mail/template';
import { errorMessage } from '../errorMessage';
import { addresseesOf } from './recipients';
import type { EngineLog, HeldAlerts } from '../run/pipeline/context';

export interface PlainAlert {
  subject: string;
  paragraphs: string[];
  /** Path under the app's public address, e.g. '/activity?rule_id=3'. */
  path: string;
  label: string;
  /** The folder's own recipients, when the alert is about one folder's rule and it has any. */
  folderEmails?: readonly string[];
}

/** Sends the alert; false when it could not be sent (the caller may let a later check retry). */
export async function sendPlainAlert(
  alerts: HeldAlerts | undefined,
  alert: PlainAlert,
  log?: EngineLog,
): Promise<boolean> {
  if (!alerts) return true;
  try {
    const { mailer, to } = addresseesOf(alerts, alert.folderEmails);
    await mailer.send({
      to,
      subject: alert.subject,
      ...renderMessage({
        paragraphs: alert.paragraphs,
        action: { label: alert.label, url: `${alerts.publicUrl}${alert.path}` },
      }),
    });
    return true;
  } catch (error) {
    log?.warn(`alert "${alert.subject}" not sent: ${errorMessage(error)}`);
    return false;
  }
}
