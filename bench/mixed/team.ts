/**
 * The people of the mixed traffic: `users` staff accounts added to the bench's copy of the seeded
 * database, each signed in through POST /api/token/ (so each has a page cache of their own, as
 * real colleagues do), and the writers' changes made as the first of them.
 */
import type { DbHandle } from '../../server/db/client';
import { hashPassword } from '../../server/auth/passwords';
import type { Writer } from './drive';
import type { TrafficFacts } from './traffic';

export const benchEmail = (n: number) => `mixed-bench-${n}@example.com`;

/** Adds (or re-activates) `count` superusers with one password. */
export async function addStaff(dbh: DbHandle, count: number, password: string): Promise<void> {
  const hash = await hashPassword(password);
  for (let n = 0; n < count; n += 1) {
    await dbh.sql.query(
      `insert into users (email, password_hash, first_name, last_name, is_superuser, is_staff, is_active)
       values ($1, $2, 'Bench', $3, true, true, true)
       on conflict ((lower(email))) do update set password_hash = excluded.password_hash, is_active = true`,
      [benchEmail(n), hash, `User ${n}`],
    );
  }
}

/** Makes a rule complete (a CPL task switched on) so a writer can switch it off and on: seeded rules have no task on. */
export async function completeRule(dbh: DbHandle, ruleId: number): Promise<void> {
  await dbh.sql.query(
    `update rule_items set is_active = true, values = '{"cpl": "40"}' where rule_id = $1 and type = 'rule_task' and name = 'trigger_cpl'`,
    [ruleId],
  );
}

export interface Session {
  access: string;
  refresh: string;
}

async function post(base: string, path: string, body: unknown, token?: string, method = 'POST') {
  const response = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json().catch(() => null)) as unknown };
}

export async function signInAll(base: string, count: number, password: string): Promise<Session[]> {
  // Ten at a time: the server checks passwords on its worker threads.
  const sessions: Session[] = [];
  for (let first = 0; first < count; first += 10) {
    const batch = Array.from({ length: Math.min(10, count - first) }, (_, i) => first + i);
    for (const { n, status, body } of await Promise.all(
      batch.map(async (n) => ({ n, ...(await post(base, '/api/token/', { email: benchEmail(n), password })) })),
    )) {
      if (status !== 200) throw new Error(`Sign-in of ${benchEmail(n)} answered ${status}: ${JSON.stringify(body)}`);
      sessions.push(body as Session);
    }
  }
  return sessions;
}

/** One user a step renews their session; the new pair replaces the old (refresh tokens rotate). */
export function sessionRenewer(base: string, sessions: Session[]) {
  let step = 0;
  return async () => {
    const index = step++ % sessions.length;
    const { status, body } = await post(base, '/api/token/refresh/', { refresh: sessions[index]!.refresh });
    if (status === 200) sessions[index] = { ...(body as Session), access: sessions[index]!.access };
    return status;
  };
}

/**
 * Three colleagues changing things once a second each: a folder renamed back and forth, a rule
 * switched off and on, a folder moved to the trash and restored. Each acts on its own objects, in
 * the middle of the data.
 */
export function teamWriters(base: string, token: string, facts: TrafficFacts): Writer[] {
  const middle = Math.floor(facts.liveFolders.length / 2);
  const renamed = facts.liveFolders[middle]!;
  const trashed = facts.liveFolders[middle + 7]!;
  const rule = facts.activeRuleId;
  /** Each writer alternates between two changes, whatever run it is in, so it never asks twice for the same. */
  const alternating = (
    name: string,
    change: (second: boolean) => Promise<{ status: number; body: unknown }>,
  ): Writer => {
    let steps = 0;
    let told = false;
    return {
      name,
      async change() {
        const answer = await change(steps++ % 2 === 1);
        if ((answer.status < 200 || answer.status > 299) && !told) {
          told = true; // once per writer: the report counts the rest
          console.error(`${name} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
        }
        return answer.status;
      },
    };
  };
  return [
    alternating('rename a folder', (second) =>
      post(
        base,
        `/api/general_page/${renamed.id}/`,
        { name: `${renamed.name}${second ? '' : ' (renamed)'}` },
        token,
        'PATCH',
      ),
    ),
    alternating('switch a rule off and on', (second) =>
      post(base, `/api/rule/${rule}/`, { is_active: second }, token, 'PATCH'),
    ),
    alternating('trash and restore a folder', (second) =>
      post(base, `/api/folders/${trashed.id}/${second ? 'restore' : 'move_to_trash'}/`, {}, token),
    ),
  ];
}
