/**
 * Pending invitations (sent, not yet used): the Team screen lists them, resends one with a new code
 * (the old code stops working) or cancels it. An invitation is named by its stored code hash, which
 * cannot be turned back into a usable code.
 */
import { and, count, desc, eq, isNull } from 'drizzle-orm';
import type { Database } from '../db/client';
import { groups, invitations, users } from '../db/schema/index';
import type { PageRequest } from '../http/pagination';
import { INVITE_LIFETIME_MS, type PendingInvitationDto } from '../../src/domain/people';
import { hashLinkSecret, newLinkSecret } from './secrets';

export type InvitationRow = typeof invitations.$inferSelect;

const ID_PATTERN = /^[0-9a-f]{64}$/;

const pending = (id?: string) =>
  id === undefined ? isNull(invitations.usedAt) : and(eq(invitations.codeHash, id), isNull(invitations.usedAt));

const columns = {
  invitation: invitations,
  groupName: groups.name,
  inviterFirst: users.firstName,
  inviterLast: users.lastName,
};

type JoinedRow = {
  invitation: InvitationRow;
  groupName: string | null;
  inviterFirst: string | null;
  inviterLast: string | null;
};

function toDto(row: JoinedRow, now = Date.now()): PendingInvitationDto {
  const { invitation } = row;
  const inviter = [row.inviterFirst, row.inviterLast].filter(Boolean).join(' ');
  return {
    id: invitation.codeHash,
    email: invitation.email,
    group:
      invitation.groupId !== null && row.groupName !== null ? { id: invitation.groupId, name: row.groupName } : null,
    invited_by: row.inviterFirst === null ? null : inviter,
    created_at: invitation.createdAt.toISOString(),
    expires_at: invitation.expiresAt.toISOString(),
    is_expired: invitation.expiresAt.getTime() <= now,
  };
}

function joined(db: Database) {
  return db
    .select(columns)
    .from(invitations)
    .leftJoin(groups, eq(groups.id, invitations.groupId))
    .leftJoin(users, eq(users.id, invitations.invitedBy));
}

/** Newest first. */
export async function listPendingInvitations(db: Database, { limit, offset }: PageRequest) {
  const [total] = await db.select({ n: count() }).from(invitations).where(pending());
  const rows = await joined(db)
    .where(pending())
    .orderBy(desc(invitations.createdAt), desc(invitations.codeHash))
    .limit(limit)
    .offset(offset);
  return { count: total?.n ?? 0, results: rows.map((row) => toDto(row)) };
}

export async function findPendingInvitation(db: Database, id: string): Promise<PendingInvitationDto | undefined> {
  if (!ID_PATTERN.test(id)) return undefined;
  const [row] = await joined(db).where(pending(id));
  return row ? toDto(row) : undefined;
}

export interface ReissuedInvitation {
  code: string;
  invitation: PendingInvitationDto;
  /** Puts the previous code back (the new one was never delivered). */
  revert(): Promise<void>;
}

/** A new code and a new 7-day lifetime for a pending invitation; the old code no longer matches. */
export async function reissueInvitation(db: Database, id: string): Promise<ReissuedInvitation | undefined> {
  if (!ID_PATTERN.test(id)) return undefined;
  const code = newLinkSecret();
  const codeHash = hashLinkSecret(code);
  const [before] = await db.select().from(invitations).where(pending(id));
  if (!before) return undefined;
  const [after] = await db
    .update(invitations)
    .set({ codeHash, createdAt: new Date(), expiresAt: new Date(Date.now() + INVITE_LIFETIME_MS) })
    .where(pending(id))
    .returning();
  if (!after) return undefined;
  const invitation = await findPendingInvitation(db, codeHash);
  if (!invitation) return undefined;
  return {
    code,
    invitation,
    async revert() {
      await db
        .update(invitations)
        .set({ codeHash: before.codeHash, createdAt: before.createdAt, expiresAt: before.expiresAt })
        .where(pending(codeHash));
    },
  };
}

/** Deletes a pending invitation; its code stops working. Answers the deleted row, if there was one. */
export async function cancelInvitation(db: Database, id: string): Promise<InvitationRow | undefined> {
  if (!ID_PATTERN.test(id)) return undefined;
  const [deleted] = await db.delete(invitations).where(pending(id)).returning();
  return deleted;
}
