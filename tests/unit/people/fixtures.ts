/** Team members and groups as the people API answers them, for the screens' tests. */
import type { SessionUser } from '../../../src/providers/session';
import { makeUser } from '../../support/users';

export const editors = { id: 1, name: 'Editors', group_access: { accesses: ['read_rules', 'create_update_rules'] } };
export const viewers = { id: 2, name: 'Viewers', group_access: { accesses: ['read_rules'] } };
export const groupList = [editors, viewers];

export const member = (overrides: Partial<SessionUser>) =>
  makeUser({ id: 20, first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com', ...overrides });

export const page = <T>(results: T[], count = results.length) => ({ count, next: null, previous: null, results });

/** Reads a JSON request body. */
export const bodyOf = async (request: Request) => (await request.json()) as Record<string, unknown>;
