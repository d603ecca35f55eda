import type { SessionUser } from '../../providers/session';

/** A row of GET /api/user/ (docs/contract.md#entities): the same shape as the signed-in user. */
export type TeamMember = SessionUser;

export const memberName = (user: Pick<TeamMember, 'first_name' | 'last_name' | 'email'>) =>
  `${user.first_name} ${user.last_name}`.trim() || user.email;
