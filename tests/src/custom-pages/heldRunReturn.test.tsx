/**
 * An alert's link to a held run goes through the normal sign-in: a signed-out person who opens it
 * is sent to Login and, once signed in, brought back to the run; any other address still lands on /.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { heldRunReturn } from '../../../src/custom-pages/heldRunLink';
import { paths } from '../../../src/providers/apiPaths';
import { http, HttpResponse, setupMswServer } from '../../support/msw';
import { renderApp, signOut } from '../../support/renderApp';
import { fakeJwt } from '../../support/tokens';
import { makeUser } from '../../support/users';

const server = setupMswServer(
  http.get('/api/*', () => HttpResponse.json({ count: 0, next: null, previous: null, results: [] })),
);

beforeEach(() => {
  signOut();
  server.use(
    http.post(paths.token, () => HttpResponse.json({ access: fakeJwt(300), refresh: 'r1' })),
    http.get(paths.me, () => HttpResponse.json(makeUser({ first_name: 'Grace', last_name: 'Hopper' }))),
  );
});

async function signInOnLoginScreen() {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText(/email/i), 'grace@example.com');
  await user.type(screen.getByLabelText(/password/i, { selector: 'input' }), 'secret123');
  await user.click(screen.getByRole('button', { name: 'Login' }));
}

describe('a held run’s link from an alert', () => {
  it('sends a signed-out person to Login, then back to the run once signed in', async () => {
    renderApp('/edit-rule/5?run=9');
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    await signInOnLoginScreen();
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent('/edit-rule/5?run=9'));
  });

  it('leaves every other sign-in landing on /', async () => {
    renderApp('/team');
    await signInOnLoginScreen();
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent(/^\/$/));
  });

  it('is only a rule’s page with a run, nothing else and nothing more', () => {
    expect(heldRunReturn({ nextPathname: '/edit-rule/5', nextSearch: '?run=9&x=1' })).toBe('/edit-rule/5?run=9');
    expect(heldRunReturn({ nextPathname: '/edit-rule/5', nextSearch: '' })).toBeNull();
    expect(heldRunReturn({ nextPathname: '//evil.example/edit-rule/5', nextSearch: '?run=9' })).toBeNull();
    expect(heldRunReturn({ nextPathname: '/team', nextSearch: '?run=9' })).toBeNull();
    expect(heldRunReturn(null)).toBeNull();
  });
});
