/**
 * Send a test: a labelled test message posted to one alert destination now, under the same address
 * policy and deadline as every alert (webhook.ts), its outcome kept as the destination's last
 * delivery (lastDelivery.ts) and answered in words. A switched-off destination may be tested too:
 * that is how one is tried before it is switched on.
 */
import { eq } from 'drizzle-orm';
import type { AlertTestResult } from '../../shared/alertTest';
import { table as alertDestinations } from '../../shared/resources/alertDestinations';
import type { Database } from '../db/client';
import { folders } from '../db/schema/index';
import { errorMessage } from '../errorMessage';
import { badRequest, notFound } from '../http/errors';
import { userText } from '../mail/template';
import { openSecret } from '../resources/store';
import type { CredentialCipher } from '../rules/credentials';
import { recordLastDelivery } from './lastDelivery';
import { slackMessage } from './slackMessage';
import { type SendWebhook, WebhookError } from './webhook';

export interface TestDeliveryDeps {
  db: Database;
  cipher: CredentialCipher;
  send: SendWebhook;
  publicUrl: string;
}

export const TEST_TITLE = 'Test message from Ad Rules Console';

async function scopeText(db: Database, folderId: number | null): Promise<string> {
  if (folderId === null) return 'every folder';
  const [folder] = await db.select({ name: folders.name }).from(folders).where(eq(folders.id, folderId));
  return folder ? `the folder ${userText(folder.name, 100)}` : 'one folder';
}

/** Posts the test to destination `id` on behalf of `by` (a person's name); answers what happened. */
export async function sendTestDelivery(deps: TestDeliveryDeps, id: number, by: string): Promise<AlertTestResult> {
  const [row] = await deps.db.select().from(alertDestinations).where(eq(alertDestinations.id, id));
  if (!row) throw notFound();
  const url = openSecret(deps.cipher, row.url);
  if (!url) throw badRequest("Enter the webhook URL again: the server's key cannot read the stored one.");
  const message = slackMessage({
    title: TEST_TITLE,
    paragraphs: [
      `This is a test of the alert destination "${userText(row.name, 100)}", sent by ${userText(by, 100)}. No rule did anything.`,
      `This channel receives the alerts of ${await scopeText(deps.db, row.folder_id)}: digests, held runs with Approve and Dismiss, and platform-health problems.`,
    ],
    action: { label: 'Open the alert destinations', url: `${deps.publicUrl}/alert_destinations` },
  });
  let answerCode: number | null = null;
  let problem: string | null = null;
  try {
    answerCode = (await deps.send(url, message)).answerCode;
  } catch (error) {
    answerCode = error instanceof WebhookError ? (error.answerCode ?? null) : null;
    problem = errorMessage(error);
  }
  const at = new Date();
  await recordLastDelivery(deps.db, row.id, { source: 'test', at, answerCode, error: problem });
  return {
    ok: problem === null,
    status_code: answerCode,
    detail: problem ?? `Delivered: the webhook answered ${answerCode}`,
    at: at.toISOString(),
  };
}
