/** Secrets the server keeps in its data dir when the environment does not provide them. */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

export async function persistentSecret(dataDir: string, name: string, fromEnv?: string): Promise<string> {
  if (fromEnv) return fromEnv;
  const file = path.join(dataDir, `${name}.secret`);
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    await mkdir(dataDir, { recursive: true });
    const secret = randomBytes(48).toString('base64url');
    await writeFile(file, secret, { mode: 0o600, flag: 'wx' }).catch(async () => undefined);
    return (await readFile(file, 'utf8')).trim();
  }
}
