/**
 * Who is signed in, kept for a short while so that an authenticated request costs no query: the
 * user with their groups' accesses (by user id) and when each session ends (by session id).
 *
 * Every change that could matter empties it, at once:
 * - in this process, any API call that may write users, groups, memberships or sessions
 *   (server/http/keptUntilChanged.ts): the answer leaves only after the cache is empty, so the
 *   caller's next request reads the database again;
 * - in every process, a database trigger on users, groups, memberships and sessions NOTIFYs
 *   `auth_changed` when the change commits (migration 0013), whoever made it (a change to sessions
 *   empties only the sessions);
 * - while the notification channel is down (PostgreSQL connection lost), nothing is cached.
 * `ttlSeconds` bounds an entry's life anyway. A read that started before a change is never stored
 * after it (the generation check below), so a change cannot be overwritten by what preceded it.
 */
import type { AuthUser } from '../people/users';

export const AUTH_CHANGED_CHANNEL = 'auth_changed';

export interface SignedInUsersSource {
  loadUser(id: number): Promise<AuthUser | undefined>;
  /** When the session ends, or null when it has ended (revoked, expired, unknown). */
  sessionExpiry(sessionId: string): Promise<Date | null>;
}

interface Entry<T> {
  value: T;
  storedAt: number;
}

export interface SignedInUsers {
  user(id: number): Promise<AuthUser | undefined>;
  /** Whether the session stands now. */
  sessionIsLive(sessionId: string): Promise<boolean>;
  /** Forget everything (a change to users, groups or memberships), or only the sessions. */
  clear(only?: 'sessions'): void;
  /** Caching is on only while changes can be heard; off, every call reads the database. */
  setListening(listening: boolean): void;
}

export function createSignedInUsers(
  source: SignedInUsersSource,
  options: { ttlSeconds: number; now?: () => number },
): SignedInUsers {
  const now = options.now ?? Date.now;
  const ttlMs = options.ttlSeconds * 1000;
  const users = new Map<number, Entry<AuthUser | undefined>>();
  const sessions = new Map<string, Entry<number | null>>();
  let generation = 0;
  let listening = false;
  const enabled = () => listening && ttlMs > 0;

  async function cached<K, T>(map: Map<K, Entry<T>>, key: K, load: () => Promise<T>): Promise<T> {
    if (!enabled()) return load();
    const hit = map.get(key);
    if (hit && now() - hit.storedAt < ttlMs) return hit.value;
    const startedIn = generation;
    const value = await load();
    if (startedIn === generation && enabled()) map.set(key, { value, storedAt: now() });
    return value;
  }

  const clear = (only?: 'sessions') => {
    generation += 1;
    if (only !== 'sessions') users.clear();
    sessions.clear();
  };

  return {
    user: (id) => cached(users, id, () => source.loadUser(id)),
    async sessionIsLive(sessionId) {
      const endsAt = await cached(
        sessions,
        sessionId,
        async () => (await source.sessionExpiry(sessionId))?.getTime() ?? null,
      );
      return endsAt !== null && endsAt > now();
    },
    clear,
    setListening(value) {
      clear();
      listening = value;
    },
  };
}
