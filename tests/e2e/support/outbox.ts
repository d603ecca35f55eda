/** Mail the product wrote to <DATA_DIR>/outbox when no SMTP server is configured. */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import PostalMime from 'postal-mime';

export interface OutboxMessage {
  to: string;
  subject: string;
  text: string;
  links: string[];
}

export async function outbox(dataDir: string): Promise<OutboxMessage[]> {
  const dir = path.join(dataDir, 'outbox');
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort();
  const messages: OutboxMessage[] = [];
  for (const file of files) {
    const parsed = await PostalMime.parse(await readFile(path.join(dir, file)));
    const text = parsed.text ?? '';
    messages.push({
      to: (parsed.to ?? []).map((a) => ('address' in a ? a.address : '')).join(', '),
      subject: parsed.subject ?? '',
      text,
      links: [...text.matchAll(/https?:\/\/\S+/g)].map((m) => m[0]),
    });
  }
  return messages;
}

/** Polls the outbox until a message to `to` arrives. */
export async function waitForMail(dataDir: string, to: string, timeoutMs = 15_000): Promise<OutboxMessage> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const found = (await outbox(dataDir)).filter((m) => m.to.includes(to)).at(-1);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no mail to ${to} in ${dataDir}/outbox`);
}
