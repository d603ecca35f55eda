/**
 * Login (docs/screens.md): a card with Email, Password, 'Forgot password?' and Login. Server field errors
 * appear under their fields and the `detail` messages in a list below the form. Success goes to /, or
 * back to the held run whose link (an alert's Approve or Dismiss) sent a signed-out person here.
 */
import { Button, Stack } from '@mui/material';
import { useState } from 'react';
import { Form, PasswordInput, TextInput, useLogin, useTranslate } from 'react-admin';
import { Link as RouterLink, Navigate, useLocation } from 'react-router-dom';
import { fieldValidator, requiredText } from '../../shared/validation';
import { ErrorList } from '../layout/ErrorList';
import { heldRunReturn } from './heldRunLink';
import { loadPasswordResetRequest } from './routes';
import { PublicCard } from '../layout/PublicCard';
import { errorMessages } from '../providers/httpErrors';
import { session } from '../providers/session';
import { useSessionUser } from '../providers/usePermissions';

/** Fetching the reset screen's code as the pointer or focus reaches its link: the click opens it at once. */
const prefetchReset = () => void loadPasswordResetRequest();

const required = fieldValidator(requiredText);

interface LoginValues {
  email: string;
  password: string;
}

const messagesOf = (value: unknown): string[] =>
  value == null ? [] : Array.isArray(value) ? value.map(String) : [String(value)];

export function LoginPage() {
  const translate = useTranslate();
  const login = useLogin();
  // An alert's link to a held run brought a signed-out person here: back to it once signed in.
  const heldRun = heldRunReturn(useLocation().state);
  const [detail, setDetail] = useState<string[]>([]);
  const [submitting, setSubmitting] = useState(false);
  useSessionUser(); // re-render when the session changes, e.g. another tab signs in

  if (session.isAuthenticated() && !submitting) return <Navigate to="/" replace />;

  const submit = async (values: Record<string, unknown>) => {
    const { email, password } = values as unknown as LoginValues;
    setDetail([]);
    setSubmitting(true);
    try {
      await login({ email, password }, heldRun ?? '/'); // docs/screens.md: a successful login lands on /
      return undefined;
    } catch (error) {
      setSubmitting(false);
      const body = (error as { body?: Record<string, unknown> }).body;
      if (body && typeof body === 'object' && !Array.isArray(body)) {
        const fieldErrors: Record<string, string> = {};
        for (const field of ['email', 'password'] as const) {
          const messages = messagesOf(body[field]);
          if (messages.length) fieldErrors[field] = messages.join(' ');
        }
        const others = Object.entries(body)
          .filter(([key]) => key !== 'email' && key !== 'password' && key !== 'errors')
          .flatMap(([key, value]) =>
            key === 'detail' ? messagesOf(value) : errorMessages({ body: { [key]: value } }),
          );
        setDetail(others);
        return fieldErrors;
      }
      setDetail(errorMessages(error));
      return undefined;
    }
  };

  return (
    <PublicCard title="app.login.title" pageName="app.page.login">
      <Form onSubmit={submit} noValidate>
        <TextInput
          source="email"
          type="email"
          label={translate('app.login.email')}
          validate={required}
          autoComplete="email"
          fullWidth
        />
        <PasswordInput
          source="password"
          label={translate('app.login.password')}
          validate={required}
          autoComplete="current-password"
          fullWidth
        />
        <Stack direction="row" justifyContent="space-between" alignItems="center" sx={{ mt: 1 }}>
          <Button
            component={RouterLink}
            to="/password-reset"
            size="small"
            onPointerEnter={prefetchReset}
            onFocus={prefetchReset}
            onTouchStart={prefetchReset}
          >
            {translate('app.login.forgot')}
          </Button>
          <Button type="submit" variant="contained" loading={submitting}>
            {translate('app.login.submit')}
          </Button>
        </Stack>
        <ErrorList errors={detail} />
      </Form>
    </PublicCard>
  );
}

export default LoginPage;
