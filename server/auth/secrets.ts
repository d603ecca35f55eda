/**
 * Secrets the server keeps in its data dir when the environment does not provide them. A secret
 * given in the environment must be at least 32 bytes (HS256 and AES-256 keys are 32 bytes: a
 * shorter secret would be the weakest link); the generated ones are 48 random bytes.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

export const MIN_SECRET_BYTES = 32;

export async function persistentSecret(
  dataDir: string,
  name: string,
  fromEnv?: string,
  envName = `${name.toUpperCase()}_SECRET`,
): Promise<string> {
  if (fromEnv) {
    if (Buffer.byteLength(fromEnv, 'utf8') < MIN_SECRET_BYTES)
      throw new Error(`${envName} must be at least ${MIN_SECRET_BYTES} bytes long (e.g. \`openssl rand -base64 48\`).`);
    return fromEnv;
  }
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
