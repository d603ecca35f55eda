import { describe, expect, it } from 'vitest';
import { createSessionStore, SESSION_STORAGE_KEY } from '../../../src/providers/session';
import { makeUser } from '../../support/users';

describe('session', () => {
  it('is restored from localStorage at load', () => {
    const user = makeUser();
    localStorage.setItem(
      SESSION_STORAGE_KEY,
      JSON.stringify({ access_token: 'a1', refresh_token: 'r1', user, isAuthenticated: true }),
    );
    const session = createSessionStore(localStorage);
    expect(session.get()).toEqual({ access_token: 'a1', refresh_token: 'r1', user, isAuthenticated: true });
    expect(session.isAuthenticated()).toBe(true);
  });

  it('counts as authenticated only while an access token is held', () => {
    localStorage.setItem(
      SESSION_STORAGE_KEY,
      JSON.stringify({ access_token: null, refresh_token: 'r1', isAuthenticated: true }),
    );
    expect(createSessionStore(localStorage).isAuthenticated()).toBe(false);
  });

  it('is saved under "auth" on every change, and cleared on logout', () => {
    const session = createSessionStore(localStorage);
    session.update({ access_token: 'a1', refresh_token: 'r1' });
    expect(JSON.parse(localStorage.getItem('auth')!)).toEqual({
      access_token: 'a1',
      refresh_token: 'r1',
      user: null,
      isAuthenticated: true,
    });
    session.clear();
    expect(JSON.parse(localStorage.getItem('auth')!)).toEqual({
      access_token: null,
      refresh_token: null,
      user: null,
      isAuthenticated: false,
    });
  });

  it('starts signed out when the stored value is unreadable', () => {
    localStorage.setItem(SESSION_STORAGE_KEY, '{not json');
    expect(createSessionStore(localStorage).get().isAuthenticated).toBe(false);
  });

  it('follows another tab when told to restore', () => {
    const session = createSessionStore(localStorage);
    const seen: boolean[] = [];
    session.subscribe((s) => seen.push(s.isAuthenticated));
    localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ access_token: 'a2', refresh_token: 'r2', user: null }));
    session.restore();
    expect(session.get().access_token).toBe('a2');
    expect(seen).toEqual([true]);
  });
});
