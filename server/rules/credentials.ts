/**
 * Folder credentials for the webinar service (demio), encrypted at rest with AES-256-GCM and
 * only ever shown masked. The key comes from CREDENTIALS_KEY or a secret file in the data dir.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Config } from '../config';
import { persistentSecret } from '../auth/secrets';
import type { DemioCredentials } from '../../src/domain/folders';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface CredentialCipher {
  encrypt(credentials: DemioCredentials): string;
  decrypt(stored: string): DemioCredentials;
}

export function createCredentialCipher(secret: string): CredentialCipher {
  const key = createHash('sha256').update(secret).digest();
  return {
    encrypt(credentials) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(JSON.stringify(credentials), 'utf8'), cipher.final()]);
      return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    decrypt(stored) {
      const [version, payload] = stored.split('.');
      if (version !== VERSION || !payload) throw new Error('Unknown credentials format');
      const raw = Buffer.from(payload, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      const text = Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
        'utf8',
      );
      return JSON.parse(text) as DemioCredentials;
    },
  };
}

export async function credentialCipherFor(
  config: Pick<Config, 'dataDir' | 'credentialsKey'>,
): Promise<CredentialCipher> {
  return createCredentialCipher(await persistentSecret(config.dataDir, 'credentials', config.credentialsKey));
}

/** The stored credentials in clear; null when none are stored or the key no longer opens them. */
export function readCredentials(cipher: CredentialCipher, stored: string | null): DemioCredentials | null {
  if (!stored) return null;
  try {
    return cipher.decrypt(stored);
  } catch {
    return null;
  }
}

export const credentialsDiffer = (a: DemioCredentials | null, b: DemioCredentials | null): boolean =>
  JSON.stringify(a) !== JSON.stringify(b);

/** 'abcd1234wxyz' → '********wxyz'; short secrets show no characters at all. */
export function maskSecret(value: string): string {
  return value.length >= 12 ? `${'*'.repeat(8)}${value.slice(-4)}` : '*'.repeat(8);
}

export const maskCredentials = (c: DemioCredentials): DemioCredentials => ({
  api_key: maskSecret(c.api_key),
  api_secret: maskSecret(c.api_secret),
});

/**
 * An update dialog sends back what it was shown: a value equal to the mask of the stored one
 * means "unchanged", so editing a folder never needs the secrets in the browser.
 */
export function mergeCredentials(
  stored: DemioCredentials | null,
  submitted: DemioCredentials | null,
): DemioCredentials | null {
  if (!submitted) return null;
  if (!stored) return submitted;
  return {
    api_key: submitted.api_key === maskSecret(stored.api_key) ? stored.api_key : submitted.api_key,
    api_secret: submitted.api_secret === maskSecret(stored.api_secret) ? stored.api_secret : submitted.api_secret,
  };
}
