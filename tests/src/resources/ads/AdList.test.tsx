/**
 * The Ads screen against msw: the query it sends (off first, the address's filters, Show, search),
 * each state in words with its run record, the numbers, and Turn back on for the selected ads — only
 * for those who may change rules.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AdDto, ObjectStateDto } from '../../../../shared/ads';
import { apiUrl, paths } from '../../../../src/providers/apiPaths';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderApp, signIn, signOut } from '../../../support/renderApp';
import { withAccesses } from '../../../support/users';

const server = setupMswServer();

const ON: ObjectStateDto = { on: true, reason: 'on', at: null, rule: null, run_id: null, entry_id: null, detail: null };

const ad = (id: string, name: string, state: Partial<ObjectStateDto>, more: Partial<AdDto> = {}): AdDto => ({
  id,
  ad_id: id,
  name,
  campaign: { id: '900', name: 'EDM - SS-W - 12/09/2026 6:30 PM - Harbor', state: ON },
  folder: { id: 3, name: 'Harbor' },
  ad_account: { id: 'act_1', name: 'Harbor Wealth', currency: 'USD', timezone_name: 'America/New_York' },
  state: { ...ON, ...state },
  read_at: '2026-03-02T15:00:00.000Z',
  today: null,
  last_judged: null,
  ...more,
});

const byRule = ad(
  '101',
  'Adviser video',
  {
    on: false,
    reason: 'rule',
    at: '2026-03-02T15:10:00.000Z',
    rule: { id: 7, name: 'No leads after $40' },
    run_id: 31,
    entry_id: 5,
  },
  {
    today: { spend: 18.4, leads: 0, cpl: null, as_of: '2026-03-02T15:00:00.000Z' },
    last_judged: {
      spend: 62.85,
      leads: 0,
      cpl: null,
      run_id: 31,
      rule: { id: 7, name: 'No leads after $40' },
      at: '2026-03-02T15:10:00.000Z',
    },
  },
);
const byMeta = ad('102', 'Checklist image', {
  on: false,
  reason: 'meta',
  at: '2026-03-02T15:10:00.000Z',
  entry_id: 6,
  detail: 'It does not follow the Advertising Standards',
});
const byPerson = ad('103', 'Carousel', { on: false, reason: 'person' });
const running = ad(
  '104',
  'Couple at table',
  {},
  { today: { spend: 22.11, leads: 4, cpl: 5.53, as_of: '2026-03-02T15:00:00.000Z' } },
);

let queries: URLSearchParams[];
let turnOns: unknown[];

beforeEach(() => {
  signOut();
  queries = [];
  turnOns = [];
  server.use(
    http.get(apiUrl('ads/'), ({ request }) => {
      queries.push(new URL(request.url).searchParams);
      const results = [byRule, byMeta, byPerson, running];
      return HttpResponse.json({ count: results.length, next: null, previous: null, results });
    }),
    http.post(paths.adsTurnOn, async ({ request }) => {
      turnOns.push(await request.json());
      return HttpResponse.json({
        detail: '1 ad turned back on; 1 left as it was.',
        turned_on: 1,
        results: [
          { ad_id: '101', result: 'turned_on', detail: 'Turned back on; the rule leaves it alone.' },
          { ad_id: '103', result: 'skipped', detail: 'Not off because of a rule: turn it on in Ads Manager.' },
        ],
      });
    }),
  );
});

const lastQuery = () => Object.fromEntries(queries[queries.length - 1]!);
const rowOf = (name: string) => screen.getByText(name).closest('tr')!;

describe('Ads list', () => {
  it('asks for the address’s folder, off first, and says why each ad is off', async () => {
    signIn(withAccesses('view_logs', 'read_rules'));
    renderApp('/ads?folder_id=3');
    await screen.findByText('Adviser video');
    expect(lastQuery()).toEqual({ limit: '20', offset: '0', ordering: 'status', folder_id: '3' });
    expect(screen.getByText('Folder id 3')).toBeInTheDocument();

    const rule = within(rowOf('Adviser video'));
    expect(
      rule.getByText(/^Turned off by rule No leads after \$40 at 3\/2\/2026, \d{1,2}:10 [AP]M$/),
    ).toBeInTheDocument();
    expect(rule.getByRole('link', { name: 'Open the run record' })).toHaveAttribute('href', '/edit-rule/7?run=31');
    expect(rule.getByText('$18.40 · 0 leads · CPL —')).toBeInTheDocument();
    expect(rule.getByText('$62.85 · 0 leads · CPL —')).toBeInTheDocument();
    expect(rule.getByRole('link', { name: /^No leads after \$40, run of / })).toHaveAttribute(
      'href',
      '/edit-rule/7?run=31',
    );
    const meta = within(rowOf('Checklist image'));
    expect(meta.getByText(/^Paused by Meta at /)).toBeInTheDocument();
    expect(meta.getByText('It does not follow the Advertising Standards')).toBeInTheDocument();
    expect(within(rowOf('Carousel')).getByText('Paused by a person')).toBeInTheDocument();
    expect(within(rowOf('Carousel')).getByText('No reading today')).toBeInTheDocument();
    const on = within(rowOf('Couple at table'));
    expect(on.getByText('On')).toBeInTheDocument();
    expect(on.getByText('$22.11 · 4 leads · CPL $5.53')).toBeInTheDocument();
    expect(on.getByText('No rule has judged it')).toBeInTheDocument();
    // Reading only: no checkboxes, no Turn back on.
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it('narrows by Show and search', async () => {
    signIn(withAccesses('view_logs'));
    renderApp('/ads');
    await screen.findByText('Adviser video');
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Show' }));
    await user.click(screen.getByRole('option', { name: 'Turned off by a rule' }));
    await waitFor(() => expect(lastQuery()).toMatchObject({ reason: 'rule' }));
    await user.click(screen.getByRole('combobox', { name: 'Show' }));
    await user.click(screen.getByRole('option', { name: 'Off' }));
    await waitFor(() => expect(lastQuery()).toMatchObject({ status: 'off' }));
    expect(lastQuery().reason).toBeUndefined();
    await user.type(screen.getByLabelText('Search'), '101');
    await waitFor(() => expect(lastQuery()).toMatchObject({ status: 'off', search: '101' }));
  });

  it('turns the selected ads back on after asking, and says what happened', async () => {
    signIn(withAccesses('view_logs', 'create_update_rules'));
    renderApp('/ads');
    await screen.findByText('Adviser video');
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'Select Adviser video (101)' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Carousel (103)' }));
    expect(screen.getByText('2 ads selected')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Turn back on' }));
    // One of the two was turned off by a rule: that is what it asks about.
    const dialog = await screen.findByRole('dialog', { name: 'Turn 1 ad back on?' });
    await user.click(within(dialog).getByRole('button', { name: 'Turn back on' }));
    expect(await screen.findByText('1 ad turned back on; 1 left as it was.')).toBeInTheDocument();
    expect(turnOns).toEqual([{ ids: ['101', '103'] }]);
    await waitFor(() => expect(screen.queryByText('2 ads selected')).toBeNull());
  });
});
