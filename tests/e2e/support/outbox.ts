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
