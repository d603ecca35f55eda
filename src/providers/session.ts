/**
 * The browser session of docs/contract.md#entities, docs/screens.md#states-and-transitions, kept in localStorage under 'auth' and saved on every change.
 * A user counts as authenticated while an access token is held.
 */
import type { UserDto } from '../../shared/contracts';

export type SessionUser = UserDto;

export interface Session {
  refresh_token: string | null;
  access_token: string | null;
  user: SessionUser | null;
  isAuthenticated: boolean;
}

export const SESSION_STORAGE_KEY = 'auth';

export const emptySession = (): Session => ({
  refresh_token: null,
  access_token: null,
  user: null,
  isAuthenticated: false,
});

type Listener = (session: Session) => void;

function readStored(storage: Storage | undefined): Session {
  try {
    const raw = storage?.getItem(SESSION_STORAGE_KEY);
    if (!raw) return emptySession();
    const parsed = JSON.parse(raw) as Partial<Session>;
    const session = { ...emptySession(), ...parsed };
    return { ...session, isAuthenticated: Boolean(session.access_token) };
  } catch {
    return emptySession();
  }
}

function browserStorage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

export function createSessionStore(storage: Storage | undefined = browserStorage()) {
  let current = readStored(storage);
  const listeners = new Set<Listener>();

  const publish = () => {
    for (const listener of listeners) listener(current);
  };

  const save = (next: Session) => {
    current = { ...next, isAuthenticated: Boolean(next.access_token) };
    try {
      storage?.setItem(SESSION_STORAGE_KEY, JSON.stringify(current));
    } catch {
      // Storage full or blocked: the session still lives for this page.
    }
    publish();
  };

  return {
    get: (): Session => current,
    /** Merges a change into the session and saves it. */
    update: (change: Partial<Omit<Session, 'isAuthenticated'>>) => save({ ...current, ...change }),
    clear: () => save(emptySession()),
    /** Re-reads localStorage (page load, or another tab changed it). */
    restore: () => {
      current = readStored(storage);
      publish();
    },
    isAuthenticated: () => Boolean(current.access_token),
    subscribe: (listener: Listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;

/** The app's one session. */
export const session = createSessionStore();

// Another tab signing in or out changes localStorage; follow it so both tabs agree.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === SESSION_STORAGE_KEY || event.key === null) session.restore();
  });
}
