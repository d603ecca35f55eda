/**
 * Invitations: a single-use code mailed to a new colleague, good for 7 days, that creates their
 * account. `createInvitationStore` sends one (an invitation whose mail fails is withdrawn) and
 * accepts one.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import { invitations, userGroups, users } from '../db/schema/index';
import { actorName, recordAudit, type AuditActor } from '../audit/log';
import { hashPassword } from '../auth/passwords';
import { ApiError, ValidationError } from '../http/errors';
import { MAX_ID } from '../http/params';
import { INVITE_LIFETIME_MS, PEOPLE_MESSAGES, type PendingInvitationDto } from '../../shared/people';
import { assertMayGrant } from './access';
import { assertMayGrantScope } from './ruleScope';
import type { PeopleDeps } from './deps';
import { findGroup, type GroupRow } from './groups';
import { invitationLink, invitationMail } from './mails';
import { pendingInvitationDto } from './pendingInvitations';
import { hashLinkSecret, newLinkSecret } from './secrets';
import { assertEmailFree, catchingEmailRace, normaliseEmail } from './team';
import { auditActorOf, type AuthUser } from './users';

/** The new invitation's code (for the mail only) and its answer, as Team lists it. */
async function createInvitation(
  db: Database,
  invitedBy: AuditActor,
  email: string,
  group: GroupRow,
): Promise<{ code: string; invitation: PendingInvitationDto }> {
  const code = newLinkSecret();
  const [row] = await db
    .insert(invitations)
    .values({
      codeHash: hashLinkSecret(code),
      email: normaliseEmail(email),
      groupId: group.id,
      invitedBy: invitedBy.id,
      expiresAt: new Date(Date.now() + INVITE_LIFETIME_MS),
    })
    .returning();
  const invitation = pendingInvitationDto({
    invitation: row!,
    groupName: group.name,
    inviterFirst: invitedBy.first_name,
    inviterLast: invitedBy.last_name,
  });
  return { code, invitation };
}

/** The mail could not be sent: the code was never delivered, so it must not stay valid. */
async function withdrawInvitation(db: Database, code: string): Promise<void> {
  await db.delete(invitations).where(eq(invitations.codeHash, hashLinkSecret(code)));
}

export interface NewMember {
  first_name: string;
  last_name: string;
  phone?: string | null;
  password: string;
  invite_code: string;
}

const inviteError = (message: string) => new ValidationError({ invite_code: [message] });

/** Uses the invitation (once) and creates the active user in the invitation's group. */
async function acceptInvitation(db: Database, member: NewMember): Promise<{ id: number; email: string }> {
  const codeHash = hashLinkSecret(member.invite_code);
  const [invitation] = await db.select().from(invitations).where(eq(invitations.codeHash, codeHash));
  if (!invitation) throw inviteError(PEOPLE_MESSAGES.inviteInvalid);
  if (invitation.usedAt) throw inviteError(PEOPLE_MESSAGES.inviteUsed);
  if (invitation.expiresAt.getTime() <= Date.now()) throw inviteError(PEOPLE_MESSAGES.inviteExpired);
  await assertEmailFree(db, invitation.email);
  const passwordHash = await hashPassword(member.password);

  return catchingEmailRace(() =>
    db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(invitations)
        .set({ usedAt: sql`now()` })
        .where(and(eq(invitations.codeHash, codeHash), isNull(invitations.usedAt)))
        .returning();
      if (!claimed) throw inviteError(PEOPLE_MESSAGES.inviteUsed);
      const [user] = await tx
        .insert(users)
        .values({
          email: claimed.email,
          passwordHash,
          firstName: member.first_name,
          lastName: member.last_name,
          phone: member.phone ?? '',
          isActive: true,
        })
        .returning();
      if (claimed.groupId) await tx.insert(userGroups).values({ userId: user!.id, groupId: claimed.groupId });
      await recordAudit(tx, auditActorOf(user!), {
        action: `Joined the team as ${user!.email}`,
        changesText: 'accepted an invitation',
      });
      return { id: user!.id, email: user!.email };
    }),
  );
}

export function createInvitationStore(db: Database, { mailer, publicUrl }: Pick<PeopleDeps, 'mailer' | 'publicUrl'>) {
  /** `log` is the request's, for a failed mail. */
  async function send(actor: AuthUser, invite: { email: string; group_id: number }, log: FastifyBaseLogger) {
    const email = normaliseEmail(invite.email);
    // An id beyond the id column's range names no group (and the database would refuse to compare it).
    const group = invite.group_id <= MAX_ID ? await findGroup(db, invite.group_id) : undefined;
    if (!group) throw new ValidationError({ group_id: [PEOPLE_MESSAGES.groupNotFound] });
    assertMayGrant(actor, group.accesses);
    await assertMayGrantScope(db, actor, group);
    await assertEmailFree(db, email);

    const { code, invitation } = await createInvitation(db, actor, email, group);
    try {
      await mailer.send(invitationMail(email, invitationLink(publicUrl, code), actorName(actor), group.name));
    } catch (error) {
      log.error({ err: error }, 'invitation mail failed');
      await withdrawInvitation(db, code);
      throw new ApiError(502, { detail: 'The invitation e-mail could not be sent. Try again later.' });
    }
    await recordAudit(db, actor, { action: `Invited ${email}`, changesText: `group: ${group.name}` });
    return { detail: 'Invitation sent successfully', invitation };
  }

  async function accept(member: NewMember) {
    const user = await acceptInvitation(db, member);
    return { detail: 'Invitation confirmed successfully', email: user.email };
  }

  return { send, accept };
}

export type InvitationStore = ReturnType<typeof createInvitationStore>;
