/** Server secrets: strong enough when given, derived properly, older encryptions still readable. */
import { createCipheriv, createHash, randomBytes, scryptSync } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { persistentSecret } from '../../../server/auth/secrets';
import { hashPassword, needsRehash, verifyPassword } from '../../../server/auth/passwords';
import { passwordHashCost } from '../../../server/config';
import { createCredentialCipher } from '../../../server/rules/credentials';

describe('server secrets', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'secrets-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('refuses a JWT_SECRET or CREDENTIALS_KEY shorter than 32 bytes, naming the setting', async () => {
    await expect(persistentSecret(dir, 'jwt', 'short-secret', 'JWT_SECRET')).rejects.toThrow(
      'JWT_SECRET must be at least 32 bytes long',
    );
    await expect(persistentSecret(dir, 'credentials', 'x'.repeat(31), 'CREDENTIALS_KEY')).rejects.toThrow(
      'CREDENTIALS_KEY must be at least 32 bytes long',
    );
    expect(await persistentSecret(dir, 'jwt', 'y'.repeat(32), 'JWT_SECRET')).toBe('y'.repeat(32));
  });

  it('generates 48 random bytes into a file only its owner can read, and keeps it', async () => {
    const first = await persistentSecret(dir, 'generated');
    expect(Buffer.from(first, 'base64url')).toHaveLength(48);
    expect((await stat(path.join(dir, 'generated.secret'))).mode & 0o777).toBe(0o600);
    expect(await persistentSecret(dir, 'generated')).toBe(first);
    expect((await readFile(path.join(dir, 'generated.secret'), 'utf8')).trim()).toBe(first);
  });

  it('encrypts credentials under an HKDF-derived key and still reads what the older derivation wrote', () => {
    const secret = 'a-credentials-key-of-at-least-32-bytes';
    const cipher = createCredentialCipher(secret);
    const demio = { api_key: 'k', api_secret: 's' };
    const stored = cipher.encrypt(demio);
    expect(stored.startsWith('v2.')).toBe(true);
    expect(cipher.decrypt(stored)).toEqual(demio);
    // What the first version wrote: AES-256-GCM under sha256(secret).
    const iv = randomBytes(12);
    const old = createCipheriv('aes-256-gcm', createHash('sha256').update(secret).digest(), iv);
    const body = Buffer.concat([old.update(JSON.stringify(demio), 'utf8'), old.final()]);
    const v1 = `v1.${Buffer.concat([iv, old.getAuthTag(), body]).toString('base64url')}`;
    expect(cipher.decrypt(v1)).toEqual(demio);
    expect(() => createCredentialCipher('another-key-of-at-least-32-bytes-long').decrypt(stored)).toThrow();
  });
});

describe('password hashes', () => {
  const cost = passwordHashCost();

  it("use OWASP's scrypt cost unless PASSWORD_HASH_COST lowers it, never raised past it or below 2^10", () => {
    expect(passwordHashCost({})).toBe(17);
    expect(passwordHashCost({ PASSWORD_HASH_COST: '12' })).toBe(12);
    for (const refused of ['9', '18', '12.5', 'strong'])
      expect(() => passwordHashCost({ PASSWORD_HASH_COST: refused })).toThrow(/PASSWORD_HASH_COST/);
  });

  it('hash with the configured parameters, and flag weaker stored ones for re-hashing', async () => {
    const hash = await hashPassword('correct-horse-1');
    expect(hash.split('$').slice(0, 4)).toEqual(['scrypt', String(2 ** cost), '8', '1']);
    expect(await verifyPassword('correct-horse-1', hash)).toBe(true);
    expect(await verifyPassword('wrong-horse-1', hash)).toBe(false);
    expect(needsRehash(hash)).toBe(false);
    const weak = `scrypt$${2 ** (cost - 1)}$8$1$c2FsdHNhbHRzYWx0c2FsdA$AAAA`;
    expect(needsRehash(weak)).toBe(true);
  });

  it("verify a hash made at OWASP's full cost, whatever the configured one", async () => {
    const salt = randomBytes(16);
    const key = scryptSync('correct-horse-1', salt, 32, { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 1024 * 1024 });
    const stored = ['scrypt', 2 ** 17, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
    expect(await verifyPassword('correct-horse-1', stored)).toBe(true);
  });

  it('never hashes a password over 128 characters or a stored row asking for absurd parameters', async () => {
    const hash = await hashPassword('x'.repeat(128));
    expect(await verifyPassword('x'.repeat(129), hash)).toBe(false);
    const absurd = hash.replace(`$${2 ** cost}$`, '$1073741824$');
    expect(await verifyPassword('x'.repeat(128), absurd)).toBe(false);
  });
});
