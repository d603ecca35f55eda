/** A one-file resource's secret fields as stored (sealed by the server's key) and as answered (masked). */
import { NEEDS_REENTRY } from '../../shared/resources/define';
import { maskSecret, opens, type CredentialCipher } from '../rules/credentials';

/** How a stored secret is answered: masked, '' when none, NEEDS_REENTRY when the server's key no longer opens it. */
export const shownSecret = (cipher: CredentialCipher, stored: unknown): string =>
  typeof stored === 'string' && stored && !opens(cipher, stored)
    ? NEEDS_REENTRY
    : maskSecret(openSecret(cipher, stored));

/** A stored secret in clear ('' when the server's key no longer opens it). */
export function openSecret(cipher: CredentialCipher, stored: unknown): string {
  try {
    return typeof stored === 'string' && stored ? cipher.decryptText(stored) : '';
  } catch {
    return '';
  }
}
