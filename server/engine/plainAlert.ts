/**
 * A one-off alert mail (a flapping object, a rule that stopped itself, a platform health problem):
 * its once-ness is the caller's (an entry or row it claimed first); this only builds and sends it
 * to the alert recipients. Without alert settings (a server built without a mailer) nothing is sent.
 */
import { renderMessage } from '../mail/template';
import { errorMessage } from '../errorMessage';
import type { EngineLog, HeldAlerts } from './pipeline/context';

export interface PlainAlert {
  subject: string;
  paragraphs: string[];
  /** Path under the app's public address, e.g. '/activity?rule_id=3'. */
  path: string;
  label: string;
}

/** Sends the alert; false when it could not be sent (the caller may let a later check retry). */
export async function sendPlainAlert(
  alerts: HeldAlerts | undefined,
  alert: PlainAlert,
  log?: EngineLog,
): Promise<boolean> {
  if (!alerts) return true;
  try {
    await alerts.mailer.send({
      to: alerts.recipients.join(', '),
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
