/** Users as GET /api/user/me/ answers them (docs/contract.md#entities), for browser tests. */
import type { SessionUser } from '../../src/providers/session';

export function makeUser(overrides: Partial<SessionUser> = {}): SessionUser {
  return {
    id: 7,
    first_name: 'Ada',
    last_name: 'Lovelace',
    is_superuser: false,
    is_staff: false,
    is_active: true,
    phone: '',
    email: 'ada@example.com',
    account: 7,
    groups: [],
    ...overrides,
  };
}

export const withAccesses = (...accesses: string[]): Partial<SessionUser> => ({
  groups: [{ id: 1, name: 'Team', group_access: { accesses } }],
});
