/** Single-use link secrets (invitations, password resets): mailed in clear, stored only as a hash. */
import { createHash, randomBytes } from 'node:crypto';

export const newLinkSecret = (): string => randomBytes(32).toString('base64url');

export const hashLinkSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');
