import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { paths } from '../../../src/providers/apiPaths';
import { session } from '../../../src/providers/session';
import { http, HttpResponse, setupMswServer } from '../../support/msw';
import { renderApp, signIn, signOut } from '../../support/renderApp';
import { fakeJwt } from '../../support/tokens';
import { makeUser } from '../../support/users';

// The screen at / may load data once signed in; it gets empty answers.
const server = setupMswServer(
  http.get('/api/*', () => HttpResponse.json({ count: 0, next: null, previous: null, results: [] })),
);

beforeEach(() => signOut());

async function submit(email: string, password: string) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText(/email/i), email);
  await user.type(screen.getByLabelText(/password/i, { selector: 'input' }), password);
  await user.click(screen.getByRole('button', { name: 'Login' }));
}

describe('Login screen', () => {
  it('is where an unauthenticated visit to a signed-in route lands', async () => {
    renderApp('/team');
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(screen.getByLabelText(/email/i)).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText(/password/i, { selector: 'input' })).toHaveAttribute('type', 'password');
    expect(screen.getByTestId('address')).toHaveTextContent('/login');
    expect(document.title).toBe('Ad Rules Console | Login');
  });

  it("'Forgot password?' goes to /password-reset", async () => {
    renderApp('/login');
    await userEvent.setup().click(await screen.findByRole('link', { name: 'Forgot password?' }));
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent('/password-reset'));
  });

  it('shows server field errors under the matching fields', async () => {
    server.use(
      http.post(paths.token, () =>
        HttpResponse.json({ email: ['E-mail must be valid'], password: ['Field is required'] }, { status: 400 }),
      ),
    );
    renderApp('/login');
    await submit('someone@example.com', 'x');
    const email = screen.getByLabelText(/email/i);
    expect(await screen.findByText('E-mail must be valid')).toBeInTheDocument();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Field is required')).toBeInTheDocument();
  });

  it('lists the detail messages below the form', async () => {
    server.use(
      http.post(paths.token, () =>
        HttpResponse.json({ detail: 'No active account found with the given credentials' }, { status: 401 }),
      ),
    );
    renderApp('/login');
    await submit('someone@example.com', 'wrongpass');
    const list = await screen.findByRole('list');
    expect(within(list).getByRole('listitem')).toHaveTextContent('No active account found with the given credentials');
    expect(session.isAuthenticated()).toBe(false);
  });

  it('signs in, keeps the session and goes to /', async () => {
    const access = fakeJwt(300);
    server.use(
      http.post(paths.token, () => HttpResponse.json({ access, refresh: 'r1' })),
      http.get(paths.me, () => HttpResponse.json(makeUser({ first_name: 'Grace', last_name: 'Hopper' }))),
    );
    renderApp('/login');
    await submit('grace@example.com', 'secret123');
    expect(await screen.findByRole('button', { name: 'Grace Hopper' })).toBeInTheDocument();
    expect(screen.getByTestId('address')).toHaveTextContent(/^\/$/);
    expect(JSON.parse(localStorage.getItem('auth')!)).toMatchObject({ access_token: access, isAuthenticated: true });
  });

  it('sends a signed-in user who opens /login to /', async () => {
    signIn();
    renderApp('/login');
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent(/^\/$/));
    expect(await screen.findByRole('button', { name: 'Ada Lovelace' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Login' })).not.toBeInTheDocument();
  });
});
