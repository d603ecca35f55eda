/**
 * Renders the real browser app (providers, layout, routes) at an address, in memory, for screen
 * tests. The API is whatever the test's msw handlers answer.
 */
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { AdminContext } from 'react-admin';
import { createMemoryRouter, useLocation } from 'react-router-dom';
import { AdminApp, AppRouter, dataProvider, i18nProvider } from '../../src/App';
import { session, type SessionUser } from '../../src/providers/session';
import { fakeJwt } from './tokens';
import { makeUser } from './users';

/** Shows the current address, so tests can read what the app navigated to. */
function AddressProbe() {
  const location = useLocation();
  return <output data-testid="address">{`${location.pathname}${location.search}`}</output>;
}

export function signIn(overrides: Partial<SessionUser> = {}): SessionUser {
  const user = makeUser(overrides);
  session.update({ access_token: fakeJwt(300), refresh_token: 'refresh-1', user });
  return user;
}

export function signOut() {
  session.clear();
}

/** A data router in memory, as the app uses in the browser (src/App.tsx). */
function renderAt(address: string, ui: ReactNode) {
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <>
            {ui}
            <AddressProbe />
          </>
        ),
      },
    ],
    { initialEntries: [address] },
  );
  return render(<AppRouter router={router} />);
}

export function renderApp(address: string) {
  return renderAt(address, <AdminApp />);
}

/** One component with the app's translations, dataProvider and a router, without the whole app. */
export function renderWithAdmin(ui: ReactNode, address = '/') {
  return renderAt(
    address,
    <AdminContext i18nProvider={i18nProvider} dataProvider={dataProvider}>
      {ui}
    </AdminContext>,
  );
}
