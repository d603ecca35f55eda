/**
 * Every custom route of docs/screens.md, one line each. To put a real screen on a route, change its line
 * (and its lazy import). Heavy screens load lazily so the first download stays small.
 * The Log (/log) is a resource: see src/resources/log. So are Activity (/activity), Team (/team) and
 * Permissions (/permissions): src/resources/activity, src/resources/team and src/resources/permissions.
 */
import { lazy, Suspense, type ComponentType } from 'react';
import { Route } from 'react-router-dom';
import { PublicLoading } from '../layout/PublicCard';

const PrivacyPolicy = lazy(() => import('./PrivacyPolicy'));
const MessengerFrame = lazy(() => import('./MessengerFrame'));
const GeneralPage = lazy(() => import('./general/GeneralPage'));
const TrashPage = lazy(() => import('./trash/TrashPage'));
const EditRulePage = lazy(() => import('./edit-rule/EditRulePage'));
const HealthPage = lazy(() => import('./health/HealthPage'));
const AccountPage = lazy(() => import('./account/AccountPage'));
const ImpactPage = lazy(() => import('./impact/ImpactPage'));
const OverviewPage = lazy(() => import('./overview/OverviewPage'));
/** The password reset request's code, fetched ahead when a person reaches for "Forgot password?". */
export const loadPasswordResetRequest = () => import('./password-reset/PasswordResetRequestPage');
const PasswordResetRequestPage = lazy(loadPasswordResetRequest);
const ConfirmPasswordResetPage = lazy(() => import('./password-reset/ConfirmPasswordResetPage'));
const JoinPage = lazy(() => import('./join/JoinPage'));
const ConfirmEmailChangePage = lazy(() => import('./email-change/ConfirmEmailChangePage'));

/**
 * Public routes have no layout, so no Suspense around them: add one for lazy screens. While one
 * loads, the public screens' frame shows (never a blank page).
 */
const loaded = (Screen: ComponentType) => (
  <Suspense fallback={<PublicLoading />}>
    <Screen />
  </Suspense>
);

/** Signed-in screens, inside the shared layout. */
export const authRoutes = [
  <Route key="general" path="/" element={<GeneralPage />} />,
  <Route key="trash" path="/trash/" element={<TrashPage />} />,
  <Route key="account" path="/account" element={<AccountPage />} />,
  <Route key="edit-rule" path="/edit-rule/:id" element={<EditRulePage />} />,
  <Route key="edit-rule-no-id" path="/edit-rule" element={<EditRulePage />} />,
  <Route key="impact" path="/impact" element={<ImpactPage />} />,
  <Route key="health" path="/health" element={<HealthPage />} />,
  <Route key="overview" path="/overview" element={<OverviewPage />} />,
];

/** Public screens, without the layout (/login is the Admin's loginPage). */
export const publicRoutes = [
  <Route key="password-reset" path="/password-reset" element={loaded(PasswordResetRequestPage)} />,
  <Route
    key="confirm-password-reset"
    path="/confirm-password-reset/:token"
    element={loaded(ConfirmPasswordResetPage)}
  />,
  <Route key="join" path="/join/:invite_code" element={loaded(JoinPage)} />,
  <Route key="confirm-email-change" path="/confirm-email-change/:token" element={loaded(ConfirmEmailChangePage)} />,
  <Route key="privacy-policy" path="/privacy-policy" element={loaded(PrivacyPolicy)} />,
  <Route key="messenger" path="/messenger/:type" element={loaded(MessengerFrame)} />,
];
