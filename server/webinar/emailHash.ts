/**
 * The one form in which the product keeps a person's e-mail: its SHA-256, hex, after the
 * normalisation Meta itself applies before hashing an e-mail (Conversions API and custom audiences:
 * trim surrounding whitespace, lower-case), so the same hash can later be matched against Meta's.
 * Nothing else is changed: dots and `+tags` stay, because many providers deliver them to different
 * mailboxes and Meta does not strip them either. A clear e-mail is hashed the moment it is read
 * (lead retrieval, Demio participants) and never stored, logged or answered.
 */
import { createHash } from 'node:crypto';

/** The e-mail as it is hashed: surrounding whitespace trimmed, lower-case. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The SHA-256 hex of the normalised e-mail; null for a blank one or one without an @. */
export function emailHash(email: string | null | undefined): string | null {
  const normalised = normaliseEmail(email ?? '');
  if (!normalised.includes('@')) return null;
  return createHash('sha256').update(normalised, 'utf8').digest('hex');
}
