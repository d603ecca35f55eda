/** The privacy policy says what is kept of the advertisers' leads and for how long. */
import { screen } from '@testing-library/react';
import { expect, it } from 'vitest';
import { renderApp } from '../../support/renderApp';

it('says leads are kept as e-mail hashes with stage and time, never in clear, for 400 days', async () => {
  renderApp('/privacy-policy');
  expect(await screen.findByRole('heading', { name: 'The advertisers’ leads' })).toBeInTheDocument();
  expect(screen.getByText(/SHA-256 hash/)).toHaveTextContent(/never stored, logged or shown in clear/);
  expect(screen.getByText(/CRM lead outcomes are kept 400 days after they happened/)).toBeInTheDocument();
});
