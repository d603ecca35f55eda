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

/** Joins with the invitation mailed to `email` (as Mia Member), the way the join screen's form posts it. */
export async function joinFromInvitation(product: { url: string; dataDir: string }, email: string, password: string) {
  const mail = (await outbox(product.dataDir)).find((m) => m.to.includes(email));
  if (!mail) throw new Error(`no invitation mailed to ${email}`);
  const code = new URL(mail.links[0]!).pathname.split('/').pop();
  const joined = await fetch(`${product.url}/api/user_invite/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      first_name: 'Mia',
      last_name: 'Member',
      phone: '',
      password,
      password2: password,
      invite_code: code,
    }),
  });
  if (joined.status !== 201) throw new Error(`joining answered ${joined.status}: ${await joined.text()}`);
}
