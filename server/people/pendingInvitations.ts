/**
 * Pending invitations (sent, not yet used): the Team screen lists them, resends one with a new code
 * (the old code stops working) or cancels it. An invitation is named by its stored code hash, which
 * cannot be turned back into a usable code.
 */
import { and, count, desc, eq, isNull } from 'drizzle-orm';
import type { Database } from '../db/client';
import { groups, invitations, users } from '../db/schema/index';
import type { PageRequest } from '../http/pagination';
import { INVITE_LIFETIME_MS, type PendingInvitationDto } from '../../shared/people';
import type { FastifyBaseLogger } from 'fastify';
import { actorName, recordAudit } from '../audit/log';
import { ApiError, notFound } from '../http/errors';
import { assertMayGrant } from './access';
import type { PeopleDeps } from './deps';
import { findGroup } from './groups';
import { invitationLink, invitationMail } from './mails';
import { hashLinkSecret, newLinkSecret } from './secrets';
import type { AuthUser } from './users';

type InvitationRow = typeof invitations.$inferSelect;

const ID_PATTERN = /^[0-9a-f]{64}$/;

const pending = (id?: string) =>
  id === undefined ? isNull(invitations.usedAt) : and(eq(invitations.codeHash, id), isNull(invitations.usedAt));

const columns = {
  invitation: invitations,
  groupName: groups.name,
  inviterFirst: users.firstName,
  inviterLast: users.lastName,
};

export type JoinedRow = {
  invitation: InvitationRow;
  groupName: string | null;
  inviterFirst: string | null;
  inviterLast: string | null;
};

/** A pending invitation as the API answers it, from its row with its group's and inviter's names. */
export function pendingInvitationDto(row: JoinedRow, now = Date.now()): PendingInvitationDto {
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
async function listPendingInvitations(db: Database, { limit, offset }: PageRequest) {
  const [total] = await db.select({ n: count() }).from(invitations).where(pending());
  const rows = await joined(db)
    .where(pending())
    .orderBy(desc(invitations.createdAt), desc(invitations.codeHash))
    .limit(limit)
    .offset(offset);
  return { count: total?.n ?? 0, results: rows.map((row) => pendingInvitationDto(row)) };
}

async function findPendingInvitation(db: Database, id: string): Promise<PendingInvitationDto | undefined> {
  if (!ID_PATTERN.test(id)) return undefined;
  const [row] = await joined(db).where(pending(id));
  return row ? pendingInvitationDto(row) : undefined;
}

interface ReissuedInvitation {
  code: string;
  invitation: PendingInvitationDto;
  /** Puts the previous code back (the new one was never delivered). */
  revert(): Promise<void>;
}

/** A new code and a new 7-day lifetime for a pending invitation; the old code no longer matches. */
async function reissueInvitation(db: Database, id: string): Promise<ReissuedInvitation | undefined> {
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
async function cancelInvitation(db: Database, id: string): Promise<InvitationRow | undefined> {
  if (!ID_PATTERN.test(id)) return undefined;
  const [deleted] = await db.delete(invitations).where(pending(id)).returning();
  return deleted;
}

/** The Team screen's pending invitations: list, resend with a new code, cancel; each change audited. */
export function createPendingInvitationStore(
  db: Database,
  { mailer, publicUrl }: Pick<PeopleDeps, 'mailer' | 'publicUrl'>,
) {
  /** Resending or cancelling an invitation needs the accesses of its group, as sending it did. */
  async function assertMayHandle(actor: AuthUser, id: string) {
    const current = await findPendingInvitation(db, id);
    if (!current) throw notFound();
    const group = current.group ? await findGroup(db, current.group.id) : undefined;
    assertMayGrant(actor, group?.accesses ?? []);
    return { current, group };
  }

  /** `log` is the request's, for a failed mail. */
  async function resend(actor: AuthUser, id: string, log: FastifyBaseLogger) {
    const { current, group } = await assertMayHandle(actor, id);
    const reissued = await reissueInvitation(db, current.id);
    if (!reissued) throw notFound();
    try {
      await mailer.send(
        invitationMail(current.email, invitationLink(publicUrl, reissued.code), actorName(actor), group?.name ?? null),
      );
    } catch (error) {
      log.error({ err: error }, 'invitation mail failed');
      await reissued.revert(); // the new code reached nobody: the earlier mail's link keeps working
      throw new ApiError(502, { detail: 'The invitation e-mail could not be sent. Try again later.' });
    }
    await recordAudit(db, actor, {
      action: `Resent the invitation to ${current.email}`,
      changesText: group ? `group: ${group.name}` : '',
    });
    return { detail: 'Invitation sent successfully', invitation: reissued.invitation };
  }

  async function cancel(actor: AuthUser, id: string): Promise<void> {
    await assertMayHandle(actor, id);
    const cancelled = await cancelInvitation(db, id);
    if (!cancelled) throw notFound();
    await recordAudit(db, actor, { action: `Cancelled the invitation to ${cancelled.email}` });
  }

  return { list: (paging: PageRequest) => listPendingInvitations(db, paging), resend, cancel };
}

export type PendingInvitationStore = ReturnType<typeof createPendingInvitationStore>;
