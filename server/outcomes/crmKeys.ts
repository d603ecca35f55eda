/**
 * A folder's key for posting lead outcomes (`POST /api/lead_outcomes/`): made and shown once, stored
 * only as its SHA-256, replaced by a rotation, deleted by a revocation; each change audited.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { OutcomeKeyStatus } from '../../shared/leadOutcomes';
import { type AuditActor, recordAudit } from '../audit/log';
import type { Database } from '../db/client';
import { folders, outcomeKeys } from '../db/schema/index';
import { notFound } from '../http/errors';
import { auditFolder } from '../rules/context';
import { requireFolder } from '../rules/store';

/** Recognisable in a CRM's settings and a secret scanner's rules: `aro_` and 256 random bits. */
const KEY_PREFIX = 'aro_';
export const hashOfKey = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

export const KEY_ACTIONS = {
  created: 'Lead outcome key created',
  rotated: 'Lead outcome key rotated',
  revoked: 'Lead outcome key revoked',
} as const;

type KeyRow = typeof outcomeKeys.$inferSelect;
const statusOf = (row: KeyRow): OutcomeKeyStatus => ({
  hint: row.keyHint,
  created_at: row.createdAt.toISOString(),
  last_used_at: row.lastUsedAt?.toISOString() ?? null,
});

/** A live folder (not in the trash) or 404. */
export async function requireLiveFolder(db: Database, folderId: number) {
  const found = await requireFolder(db, folderId);
  if (found.folder.isDeleted) throw notFound();
  return found;
}

export function createOutcomeKeys(db: Database) {
  async function status(folderId: number): Promise<OutcomeKeyStatus | null> {
    const [row] = await db.select().from(outcomeKeys).where(eq(outcomeKeys.folderId, folderId));
    return row ? statusOf(row) : null;
  }

  /** A new key for the folder, replacing the one it had: the key itself is in this answer only. */
  async function rotate(actor: AuditActor, folderId: number): Promise<{ key: string; status: OutcomeKeyStatus }> {
    const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const values = { keyHash: hashOfKey(key), keyHint: key.slice(-4), createdAt: new Date(), createdBy: actor.id };
    return db.transaction(async (tx) => {
      const { folder, account } = await requireFolder(tx, folderId, true);
      if (folder.isDeleted) throw notFound();
      const [before] = await tx
        .select({ id: outcomeKeys.id })
        .from(outcomeKeys)
        .where(eq(outcomeKeys.folderId, folderId));
      const [row] = await tx
        .insert(outcomeKeys)
        .values({ folderId, ...values })
        .onConflictDoUpdate({ target: outcomeKeys.folderId, set: { ...values, lastUsedAt: null } })
        .returning();
      await recordAudit(tx, actor, {
        action: before ? KEY_ACTIONS.rotated : KEY_ACTIONS.created,
        changesText: `Key ending ${values.keyHint}`,
        folder: auditFolder(folder, account),
      });
      return { key, status: statusOf(row!) };
    });
  }

  /** The folder's key stops working at once; 404 when it has none. */
  async function revoke(actor: AuditActor, folderId: number): Promise<void> {
    await db.transaction(async (tx) => {
      const { folder, account } = await requireFolder(tx, folderId, true);
      const [row] = await tx.delete(outcomeKeys).where(eq(outcomeKeys.folderId, folderId)).returning();
      if (!row) throw notFound('This folder has no lead outcome key.');
      await recordAudit(tx, actor, {
        action: KEY_ACTIONS.revoked,
        changesText: `Key ending ${row.keyHint}`,
        folder: auditFolder(folder, account),
      });
    });
  }

  /** The live folder a key belongs to (its use noted), or null for an unknown, revoked or trashed folder's key. */
  async function folderOfKey(key: string): Promise<number | null> {
    const [row] = await db
      .update(outcomeKeys)
      .set({ lastUsedAt: new Date() })
      .where(eq(outcomeKeys.keyHash, hashOfKey(key)))
      .returning({ folderId: outcomeKeys.folderId });
    if (!row) return null;
    const [live] = await db
      .select({ id: folders.id })
      .from(folders)
      .where(and(eq(folders.id, row.folderId), eq(folders.isDeleted, false)));
    return live ? row.folderId : null;
  }

  return { status, rotate, revoke, folderOfKey };
}
