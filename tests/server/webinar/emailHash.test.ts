import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { emailHash, normaliseEmail } from '../../../server/webinar/emailHash';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('emailHash', () => {
  it('is the SHA-256 hex of the trimmed, lower-cased address', () => {
    expect(emailHash('jane.doe@example.com')).toBe(sha256('jane.doe@example.com'));
    expect(emailHash('  Jane.Doe@Example.COM \n')).toBe(sha256('jane.doe@example.com'));
    expect(emailHash('jane.doe@example.com')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('keeps dots and +tags, which can name different mailboxes', () => {
    expect(normaliseEmail('Jane.Doe+webinar@Example.com')).toBe('jane.doe+webinar@example.com');
    expect(emailHash('jane.doe+webinar@example.com')).not.toBe(emailHash('janedoe@example.com'));
    expect(emailHash('jane.doe+webinar@example.com')).not.toBe(emailHash('jane.doe@example.com'));
  });

  it('has no hash for a missing or blank address', () => {
    expect(emailHash(undefined)).toBeNull();
    expect(emailHash(null)).toBeNull();
    expect(emailHash('   ')).toBeNull();
    expect(emailHash('not an address')).toBeNull();
  });
});
