/** First start: make sure a superuser exists, and say how to sign in. */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { users } from '../db/schema/index';
import { hashPassword } from '../auth/passwords';

export interface AdminResult {
  created: boolean;
  email: string;
  /** Only when the password was generated here: printed once, never stored in clear. */
  generatedPassword?: string;
}

export async function ensureAdmin(db: Database, email: string, password?: string): Promise<AdminResult> {
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.isSuperuser, true)).limit(1);
  if (existing) return { created: false, email };
  const generatedPassword = password ? undefined : randomBytes(12).toString('base64url');
  // Processes starting together on an empty database race here: the one whose row is kept says so
  // (and prints its password); the others' passwords never worked, so they print none.
  const inserted = await db
    .insert(users)
    .values({
      email,
      passwordHash: await hashPassword(password ?? generatedPassword!),
      firstName: 'Admin',
      lastName: 'User',
      isSuperuser: true,
      isStaff: true,
      isActive: true,
    })
    .onConflictDoNothing()
    .returning({ id: users.id });
  if (!inserted.length) return { created: false, email };
  return { created: true, email, generatedPassword };
}
