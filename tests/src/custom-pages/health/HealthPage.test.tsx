/**
 * The health panel against msw: the built-in token's card and one per added Meta connection, a
 * connection whose token Meta refuses saying why, and an account it serves showing the same problem.
 */
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PlatformHealthDto } from '../../../../shared/health';
import { paths } from '../../../../src/providers/apiPaths';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderApp, signIn, signOut } from '../../../support/renderApp';
import { withAccesses } from '../../../support/users';

const server = setupMswServer();

const refused = {
  check: 'token' as const,
  state: 'problem' as const,
  detail: 'Error validating access token: The session has been invalidated',
  since: '2026-11-28T10:00:00.000Z',
};

const health: PlatformHealthDto = {
  token: { problems: [], checked_at: '2026-11-28T10:00:00.000Z' },
  connections: [
    { id: 2, name: 'Northwind Advisors', problems: [refused], checked_at: '2026-11-28T10:00:00.000Z' },
    { id: 3, name: 'Harbor Group', problems: [], checked_at: null },
  ],
  accounts: [
    {
      ad_account_id: 'act_11',
      account_name: 'Northwind Wealth',
      state: 'problem',
      problems: [refused],
      checked_at: '2026-11-28T10:00:00.000Z',
      lead_lag: null,
    },
  ],
};

beforeEach(() => {
  signOut();
  server.use(http.get(paths.platformHealth, () => HttpResponse.json(health)));
});

describe('the health panel', () => {
  it("shows each Meta connection's token beside the built-in one, and its problem on the accounts it serves", async () => {
    signIn(withAccesses('read_rules'));
    renderApp('/health');
    const northwind = await screen.findByRole('region', { name: 'Northwind Advisors' });
    expect(within(northwind).getByText(/Error validating access token/)).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Harbor Group' })).getByText('Not checked yet'),
    ).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Access token' })).getByText('The token works.'),
    ).toBeInTheDocument();
    const account = screen.getByRole('region', { name: 'Northwind Wealth' });
    expect(within(account).getByText(/Error validating access token/)).toBeInTheDocument();
  });
});
