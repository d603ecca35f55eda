/**
 * Activity's budget entries: raise_budget, lower_budget and restore_budget read as words, with
 * their reason (the budget, the ceiling that cut it, the condition), and no Undo.
 */
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { paths } from '../../../../src/providers/apiPaths';
import type { ActivityEntry } from '../../../../shared/ruleRuns';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderApp, signIn, signOut } from '../../../support/renderApp';
import { withAccesses } from '../../../support/users';

const server = setupMswServer();

const rule = {
  id: 5,
  name: 'Scale cheap leads',
  folder: { id: 2, name: 'Acme Advisors', meta_ad_account: { account_name: 'Acme Ads' } },
};
const raised: ActivityEntry = {
  id: 31,
  created_at: '2026-03-05T12:00:09Z',
  action: 'raise_budget',
  ad_id: '230001',
  object_type: 'adset',
  reason: {
    Budget: '$50.00 → $60.00 a day',
    Ceiling: '+20% asked, +8% allowed: 24 h ceiling',
    'CPL (last 7 days)': '$21.40 < $30.00',
  },
  undone_at: null,
  exempt: false,
  rule,
};
const lowered: ActivityEntry = {
  ...raised,
  id: 32,
  action: 'lower_budget',
  ad_id: '230002',
  reason: { Budget: '$100.00 → $80.00 a day' },
};
const restored: ActivityEntry = {
  ...raised,
  id: 33,
  action: 'restore_budget',
  ad_id: '230003',
  reason: { Budget: '$60.00 → $50.00 a day', 'CPL (last 7 days)': '$34.10 > $30.00' },
};

beforeEach(() => {
  signOut();
  server.use(
    http.get(paths.ruleLog, () =>
      HttpResponse.json({ count: 3, next: null, previous: null, results: [raised, lowered, restored] }),
    ),
  );
});

const rowOf = (text: string) => screen.getByText(text).closest('tr')!;

describe('Activity: budget entries', () => {
  it('reads raise, lower and roll back as words with their reasons, without Undo', async () => {
    signIn(withAccesses('view_logs', 'create_update_rules'));
    renderApp('/activity');
    expect(await screen.findByText('Budget raised')).toBeInTheDocument();
    const row = rowOf('Budget raised');
    expect(within(row).getByText('$50.00 → $60.00 a day')).toBeInTheDocument();
    expect(within(row).getByText('+20% asked, +8% allowed: 24 h ceiling')).toBeInTheDocument();
    expect(within(row).getByText('CPL (last 7 days):')).toBeInTheDocument();
    expect(within(rowOf('Budget lowered')).getByText('$100.00 → $80.00 a day')).toBeInTheDocument();
    expect(within(rowOf('Budget rolled back')).getByText('$34.10 > $30.00')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Undo/ })).not.toBeInTheDocument();
  });
});
