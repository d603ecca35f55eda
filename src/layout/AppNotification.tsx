import { Notification } from 'react-admin';
import { SNACKBAR_TIMEOUT_MS } from '../domain/constants';

/** The app-wide snackbar: SPEC §9's 5 s unless a message asks for its own duration. */
export function AppNotification() {
  return <Notification autoHideDuration={SNACKBAR_TIMEOUT_MS} />;
}
