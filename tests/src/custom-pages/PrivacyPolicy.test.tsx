import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PrivacyPolicy } from '../../../src/custom-pages/PrivacyPolicy';
import { renderWithAdmin } from '../../support/renderApp';

describe('Privacy policy', () => {
  it('has a way back to the console', async () => {
    renderWithAdmin(<PrivacyPolicy />);
    expect(await screen.findByRole('heading', { name: 'Privacy Policy', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Ad Rules Console' })).toHaveAttribute('href', '/');
  });

  it('says leads are kept as e-mail hashes with stage and time, never in clear, and deleted after 400 days', async () => {
    renderWithAdmin(<PrivacyPolicy />);
    expect(await screen.findByRole('heading', { name: 'The advertisers’ leads' })).toBeInTheDocument();
    expect(screen.getByText(/SHA-256 hash/)).toHaveTextContent(/never stored, logged or shown in clear/);
    expect(screen.getByText(/webinar participants and form leads are kept as hashes only/)).toBeInTheDocument();
    const retention = screen.getByText(/kept 400 days after they happened/);
    expect(retention).toHaveTextContent(/webinar registrations and attendances, CRM stages/);
    expect(retention).toHaveTextContent(/then deleted automatically/);
  });
});
