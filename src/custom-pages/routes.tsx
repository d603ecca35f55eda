/**
 * Every custom route of SPEC §2, one line each. To put a real screen on a route, change its line
 * (and its lazy import). Heavy screens load lazily so the first download stays small.
 * The Log (/log) is a resource: see src/resources/log.
 */
import { lazy, Suspense, type ComponentType } from 'react';
import { Route } from 'react-router-dom';
import { Placeholder, PublicPlaceholder } from './Placeholder';

const PrivacyPolicy = lazy(() => import('./PrivacyPolicy'));
const MessengerFrame = lazy(() => import('./MessengerFrame'));

/** Public routes have no layout, so no Suspense around them: add one for lazy screens. */
const loaded = (Screen: ComponentType) => (
  <Suspense fallback={null}>
    <Screen />
  </Suspense>
);

/** Signed-in screens, inside the shared layout. */
export const authRoutes = [
  <Route key="general" path="/" element={<Placeholder title="app.page.general" />} />,
  <Route key="trash" path="/trash/" element={<Placeholder title="app.page.trash" />} />,
  <Route key="account" path="/account" element={<Placeholder title="app.page.account" />} />,
  <Route key="team" path="/team" element={<Placeholder title="app.page.team" />} />,
  <Route key="campaigns" path="/campaigns" element={<Placeholder title="app.page.campaigns" />} />,
  <Route key="edit-rule" path="/edit-rule/:id" element={<Placeholder title="app.page.edit_rule" />} />,
  <Route key="permissions" path="/permissions" element={<Placeholder title="app.page.permissions" />} />,
  <Route key="activity" path="/activity" element={<Placeholder title="app.page.activity" />} />,
];

/** Public screens, without the layout (/login is the Admin's loginPage). */
export const publicRoutes = [
  <Route key="password-reset" path="/password-reset" element={<PublicPlaceholder title="app.page.password_reset" />} />,
  <Route key="confirm-password-reset" path="/confirm-password-reset/:token" element={<PublicPlaceholder title="app.page.confirm_password_reset" />} />,
  <Route key="join" path="/join/:invite_code" element={<PublicPlaceholder title="app.page.join" />} />,
  <Route key="privacy-policy" path="/privacy-policy" element={loaded(PrivacyPolicy)} />,
  <Route key="messenger" path="/messenger/:type" element={loaded(MessengerFrame)} />,
];
