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
});
