/**
 * The browser app: react-admin's AdminContext with the providers around CoreAdminUI, one <Resource>
 * per folder of src/resources, and the custom routes of src/custom-pages/routes.tsx.
 */
import { CssBaseline } from '@mui/material';
import { CoreAdminUI, localStorageStore } from 'ra-core';
import { lazy, type ReactNode, Suspense } from 'react';
import {
  AdminContext,
  AuthenticationError,
  CustomRoutes,
  Error as ErrorPage,
  LoadingPage,
  Resource,
} from 'react-admin';
import { createBrowserRouter, type DataRouter, RouterProvider } from 'react-router-dom';
import { authRoutes, publicRoutes } from './custom-pages/routes';
import { AppNotification } from './layout/AppNotification';
import { AccessDeniedPage, NotFoundPage } from './layout/ProblemPage';
import { PublicLoading } from './layout/PublicCard';
import { ResourceNavigationProvider } from './layout/resourceNavigation';
import { PRODUCT_NAME } from '../shared/constants';
import { createAuthProvider } from './providers/authProvider';
import { createDataProvider } from './providers/dataProvider';
import { en } from './i18n/en';
import { mergeMessages } from './i18n/merge';
import { createI18nProvider } from './providers/i18nProvider';
import { accessRulesOf, endpointsOf, messagesOf, resources } from './resources';
import { pageEndpoints } from './custom-pages/endpoints';
import { theme } from './theme';

/**
 * The sign-in form loads when it is shown: a signed-in user's first screen does not need it, nor
 * the form and validation code it brings (docs/frontend.md, "Bundle").
 */
const LazyLoginPage = lazy(() => import('./custom-pages/LoginPage'));
const LoginPage = () => (
  <Suspense fallback={<PublicLoading />}>
    <LazyLoginPage />
  </Suspense>
);

/**
 * The signed-in screens' layout (header, side panel, react-admin's Layout with its drawer, tooltips
 * and popper) loads once someone is signed in: the sign-in screen does not show it.
 */
const LazyAppLayout = lazy(() => import('./layout/AppLayout').then((m) => ({ default: m.AppLayout })));
const AppLayout = ({ children }: { children: ReactNode }) => (
  <Suspense fallback={<LoadingPage />}>
    <LazyAppLayout>{children}</LazyAppLayout>
  </Suspense>
);

export const authProvider = createAuthProvider({ accessRules: accessRulesOf(resources) });
export const dataProvider = createDataProvider({ endpoints: { ...pageEndpoints, ...endpointsOf(resources) } });
/** The areas' English (src/i18n/en.ts), then each resource's own labels. */
export const i18nProvider = createI18nProvider(mergeMessages(en, ...messagesOf(resources)));

/** What <Admin> keeps its preferences in (a panel left open, a list's columns), as before. */
const store = localStorageStore();

/**
 * react-admin's <Admin> is <AdminContext> around <AdminUI>; AdminUI imports a default for every
 * page it is not given (react-admin's own Layout and login form among them), all of which would
 * load up front. Here CoreAdminUI gets each page from us, so only what a screen shows is loaded.
 */
export function AdminApp() {
  return (
    <AdminContext
      authProvider={authProvider}
      dataProvider={dataProvider}
      i18nProvider={i18nProvider}
      theme={theme}
      store={store}
    >
      <CssBaseline enableColorScheme>
        <ResourceNavigationProvider resources={resources}>
          <CoreAdminUI
            title={PRODUCT_NAME}
            layout={AppLayout}
            loginPage={LoginPage}
            catchAll={NotFoundPage}
            accessDenied={AccessDeniedPage}
            authenticationError={AuthenticationError}
            error={ErrorPage}
            loading={LoadingPage}
            requireAuth
            disableTelemetry
          >
            {resources.map(
              ({
                name,
                endpoint: _endpoint,
                i18n: _i18n,
                access: _access,
                menu: _menu,
                userMenu: _userMenu,
                ...views
              }) => (
                <Resource key={name} name={name} {...views} />
              ),
            )}
            <CustomRoutes>{authRoutes}</CustomRoutes>
            <CustomRoutes noLayout>{publicRoutes}</CustomRoutes>
          </CoreAdminUI>
        </ResourceNavigationProvider>
        <AppNotification />
      </CssBaseline>
    </AdminContext>
  );
}

/**
 * A data router, so screens can hold a navigation (useBlocker: the rule editor's 'Leave the page?'
 * also catches the browser's back and forward buttons).
 */
const router = createBrowserRouter([{ path: '*', element: <AdminApp /> }]);

/**
 * Router updates are not wrapped in React transitions (`useTransitions={false}`): react-admin's
 * sign-out redirect (LogoutOnMount, then navigate to /login) resets its query cache right after
 * navigating, which re-renders the old screen urgently and restarts the logout; as a transition the
 * /login render kept being interrupted and the login form could take seconds to appear.
 */
export function AppRouter({ router }: { router: DataRouter }) {
  return <RouterProvider router={router} useTransitions={false} />;
}

export default function App() {
  return <AppRouter router={router} />;
}
