/**
 * Ends a signed-in screen when its session ends (docs/screens.md#states-and-transitions): a refused token refresh clears the session
 * wherever the call came from — react-admin lists and custom screens alike — and this sends the
 * user to /login through react-admin's logout (which also drops cached data).
 */
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useLogout } from 'react-admin';
import { session } from '../providers/session';

export function SessionEndRedirect() {
  const signedIn = useSyncExternalStore(session.subscribe, session.isAuthenticated);
  const logout = useLogout();
  const loggingOut = useRef(false);

  useEffect(() => {
    if (signedIn || loggingOut.current) return;
    loggingOut.current = true;
    void logout();
  }, [signedIn, logout]);

  return null;
}
