import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { setupMswServer } from '../../support/msw';
import { renderApp, signOut } from '../../support/renderApp';

setupMswServer();

beforeEach(() => signOut());

const SIGNED_IN_ROUTES = [
  '/',
  '/trash',
  '/trash/',
  '/account',
  '/team',
  '/campaigns',
  '/edit-rule/5',
  '/permissions',
  '/log',
  '/activity',
];

describe('routes', () => {
  it.each(SIGNED_IN_ROUTES)('%s sends an unauthenticated visitor to /login', async (address) => {
    renderApp(address);
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(screen.getByTestId('address')).toHaveTextContent(/^\/login$/);
  });

  it('/privacy-policy is public static text', async () => {
    renderApp('/privacy-policy');
    expect(await screen.findByRole('heading', { name: 'Privacy Policy', level: 1 })).toBeInTheDocument();
    expect(screen.getByTestId('address')).toHaveTextContent('/privacy-policy');
    await waitFor(() => expect(document.title).toBe('Ad Rules Console | Privacy Policy'));
  });

  it('/messenger/:type is a public, lazily loaded frame host', async () => {
    renderApp('/messenger/chat');
    const frame = await screen.findByRole('main', { name: 'Messenger chat' });
    expect(frame).toHaveAttribute('data-messenger-type', 'chat');
    expect(screen.queryByRole('heading', { name: 'Login' })).not.toBeInTheDocument();
  });
});
