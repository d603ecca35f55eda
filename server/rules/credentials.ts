/**
 * Folder credentials for the webinar service (demio), encrypted at rest with AES-256-GCM and
 * only ever shown masked. The key is derived with HKDF-SHA256 from CREDENTIALS_KEY (at least 32
 * bytes) or a secret file in the data dir; values written under the older SHA-256 derivation (v1)
 * are still read, and are re-written as v2 the next time the folder's credentials are saved.
 *
 * Credentials that no longer decrypt (the key changed) are never passed off as "none" or as their
 * mask: the folder says so, and saving the masks back is refused until they are entered again.
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ValidationError } from '../http/errors';
import type { Config } from '../config';
import { persistentSecret } from '../auth/secrets';
import type { DemioCredentials } from '../../shared/folders';
import { NEEDS_REENTRY } from '../../shared/resources/define';

const VERSION = 'v2';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface CredentialCipher {
  encrypt(credentials: DemioCredentials): string;
  decrypt(stored: string): DemioCredentials;
  /** Any other secret text (a webhook address), under the same key. */
  encryptText(text: string): string;
  decryptText(stored: string): string;
}

export const CREDENTIALS_UNREADABLE = `Webinar credentials: ${NEEDS_REENTRY} (this server's key cannot read the stored ones). Enter them again.`;

/** What a folder holds: credentials, none, or a value the current key cannot open. */
export type StoredCredentials = DemioCredentials | null | 'unreadable';

export function createCredentialCipher(secret: string): CredentialCipher {
  const keys: Record<string, Buffer> = {
    v1: createHash('sha256').update(secret).digest(),
    v2: Buffer.from(hkdfSync('sha256', secret, 'ad-rules-console', 'folder credentials v2', 32)),
  };
  const key = keys[VERSION]!;
  const encryptText = (text: string) => {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
  };
  const decryptText = (stored: string) => {
    const [version, payload] = stored.split('.');
    const versionKey = version ? keys[version] : undefined;
    if (!versionKey || !payload) throw new Error('Unknown credentials format');
    const raw = Buffer.from(payload, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', versionKey, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  };
  return {
    encrypt: (credentials) => encryptText(JSON.stringify(credentials)),
    decrypt: (stored) => JSON.parse(decryptText(stored)) as DemioCredentials,
    encryptText,
    decryptText,
  };
}

export async function credentialCipherFor(
  config: Pick<Config, 'dataDir' | 'credentialsKey'>,
): Promise<CredentialCipher> {
  return createCredentialCipher(
    await persistentSecret(config.dataDir, 'credentials', config.credentialsKey, 'CREDENTIALS_KEY'),
  );
}

/** The file that holds the key when CREDENTIALS_KEY is unset. */
export const credentialsKeyFile = (dataDir: string) => path.join(dataDir, 'credentials.secret');

/**
 * The cipher a server with this configuration would use, or null when it has no key yet (no
 * CREDENTIALS_KEY, no key file: nothing stored can be read). Unlike credentialCipherFor, creates nothing.
 */
export async function existingCredentialCipher(
  config: Pick<Config, 'dataDir' | 'credentialsKey'>,
): Promise<CredentialCipher | null> {
  if (config.credentialsKey) return credentialCipherFor(config);
  const secret = await readFile(credentialsKeyFile(config.dataDir), 'utf8').then(
    (text) => text.trim(),
    () => '',
  );
  return secret ? createCredentialCipher(secret) : null;
}

/** Whether this cipher opens a stored secret (no cipher opens nothing). */
export function opens(cipher: CredentialCipher | null, stored: string): boolean {
  if (!cipher) return false;
  try {
    cipher.decryptText(stored);
    return true;
  } catch {
    return false;
  }
}

/** The stored credentials in clear; null when none are stored; 'unreadable' when the key no longer opens them. */
export function readCredentials(cipher: CredentialCipher, stored: string | null): StoredCredentials {
  if (!stored) return null;
  try {
    return cipher.decrypt(stored);
  } catch {
    return 'unreadable';
  }
}

export const credentialsDiffer = (a: StoredCredentials, b: StoredCredentials): boolean =>
  JSON.stringify(a) !== JSON.stringify(b);

/** 'abcd1234wxyz' → '********wxyz'; short secrets show no characters at all. */
export function maskSecret(value: string): string {
  return value.length >= 12 ? `${'*'.repeat(8)}${value.slice(-4)}` : '*'.repeat(8);
}

const looksMasked = (value: string) => /^\*{8}.{0,4}$/.test(value);

export const maskCredentials = (c: DemioCredentials): DemioCredentials => ({
  api_key: maskSecret(c.api_key),
  api_secret: maskSecret(c.api_secret),
});

/**
 * An update dialog sends back what it was shown: a value equal to the mask of the stored one
 * means "unchanged", so editing a folder never needs the secrets in the browser.
 */
export function mergeCredentials(
  stored: StoredCredentials,
  submitted: DemioCredentials | null,
): DemioCredentials | null {
  if (!submitted) return null;
  if (stored === 'unreadable' && (looksMasked(submitted.api_key) || looksMasked(submitted.api_secret)))
    throw new ValidationError({ extension: [CREDENTIALS_UNREADABLE] });
  if (!stored || stored === 'unreadable') return submitted;
  return {
    api_key: submitted.api_key === maskSecret(stored.api_key) ? stored.api_key : submitted.api_key,
    api_secret: submitted.api_secret === maskSecret(stored.api_secret) ? stored.api_secret : submitted.api_secret,
  };
}
