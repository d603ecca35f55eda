/**
 * The Campaigns screen against msw: columns and the display rules of docs/screens.md, the filter panel
 * (every filter reaches the query, numbers only, Clear, Show/Hide, bookmarkable address), page
 * sizes, row refresh with its spinner and snackbar, the empty state, and access.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { paths } from '../../../../src/providers/apiPaths';
import { captureConsoleErrors, loggedHttpStatuses } from '../../../support/consoleErrors';
import { delay, http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderApp, signIn, signOut } from '../../../support/renderApp';
import { withAccesses } from '../../../support/users';

const server = setupMswServer();

const account = {
  account_name: 'Harbor Wealth Advisors',
  ad_account_id: 'act_574702335981050',
  ad_account_id_int: 574702335981050,
  timezone_name: 'America/New_York',
  currency: 'USD',
};
const other = {
  account_name: 'Pacific Coast Planning',
  ad_account_id: 'act_483217256994822',
  ad_account_id_int: 483217256994822,
  timezone_name: 'America/Los_Angeles',
  currency: 'USD',
};

const webinar = {
  id: '120200000000000002',
  campaign_id: '120200000000000002',
  campaign_name: 'EDM - EP-W - 03/14/2026 6:30 PM - Harbor',
  status: 'ACTIVE',
  effective_status: 'ACTIVE',
  meta_ad_account: account,
  campaignextension: { topic: 'EP', is_webinar: true, event_date: '2026-03-14', event_time: '18:30' },
  spend: 1234.5,
  leads: 30,
  actions: [{ action_type: 'lead', value: '30' }],
  cpl: 41.15,
  ctr: 1.4896,
  cpc: 0.8,
  end_date: '2026-03-14T22:30:00.000Z',
  updated_at: '2026-03-02T15:05:00.000Z',
  registrations: 24,
  attendees: 9,
  show_up_rate: 0.375,
  cost_per_attendee: 137.17,
  state: {
    on: false,
    reason: 'rule',
    at: '2026-03-02T16:00:00.000Z',
    rule: { id: 7, name: 'CPL over $50' },
    run_id: 31,
    entry_id: 5,
    detail: null,
  },
};
const seminar = {
  ...webinar,
  state: { on: false, reason: 'person', at: null, rule: null, run_id: null, entry_id: null, detail: null },
  id: '120200000000000001',
  campaign_id: '120200000000000001',
  campaign_name: 'EDM - TIR-S - 3/20/26 10 AM - Pacific',
  meta_ad_account: other,
  campaignextension: { topic: 'TIR', is_webinar: false, event_date: '2026-03-20', event_time: '10:00' },
};
const unparsed = {
  ...webinar,
  id: '120200000000000000',
  campaign_id: '120200000000000000',
  campaign_name: 'Brand Awareness - Harbor',
  state: { on: true, reason: 'on', at: null, rule: null, run_id: null, entry_id: null, detail: null },
  campaignextension: { topic: null, is_webinar: null, event_date: null, event_time: null },
  spend: 0,
  leads: 0,
  actions: [],
  cpl: null,
  ctr: null,
  cpc: null,
  end_date: null,
  registrations: null,
  attendees: null,
  show_up_rate: null,
  cost_per_attendee: null,
};

let queries: URLSearchParams[];
let campaigns: Record<string, unknown>[];
let refreshes: string[];

beforeEach(() => {
  signOut();
  queries = [];
  refreshes = [];
  campaigns = [webinar, seminar, unparsed];
  server.use(
    http.get(paths.campaigns, ({ request }) => {
      queries.push(new URL(request.url).searchParams);
      return HttpResponse.json({ count: campaigns.length, next: null, previous: null, results: campaigns });
    }),
    http.get(paths.metaAdAccounts, () =>
      HttpResponse.json({ count: 2, next: null, previous: null, results: [account, other] }),
    ),
  );
});

const lastQuery = () => Object.fromEntries(queries[queries.length - 1]!);
const rowOf = (text: string) => screen.getByText(text).closest('tr')!;

async function openCampaigns(address = '/campaigns', accesses = ['add_edit_campaigns']) {
  signIn(withAccesses(...accesses));
  renderApp(address);
  await screen.findByText(webinar.campaign_name);
}

describe('Campaigns list', () => {
  it('asks for the first 10 by campaign id, newest first, and shows the columns with the Source Campaign Name group', async () => {
    await openCampaigns();
    expect(lastQuery()).toEqual({ limit: '10', offset: '0', ordering: '-campaign_id' });
    expect(screen.getByText('ALPHA')).toBeInTheDocument();
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual([
      'Campaign ID',
      'Campaign Name',
      'Status',
      'Ad Account',
      'Source Campaign Name',
      'Spend',
      'Result',
      'CPL',
      'CTR',
      'CPC',
      'Registrations',
      'Attendees',
      'Show-up',
      'Cost / Attendee',
      'End Date',
      'Sync Date',
      'Actions',
      'Topic',
      'Event Type',
      'Event Date',
      'Event Time',
    ]);
    expect(screen.getByRole('columnheader', { name: 'Source Campaign Name' })).toHaveAttribute('colspan', '4');
  });

  it('formats money, percent, result, dates and times, chips and N/A', async () => {
    await openCampaigns();
    const cells = (name: string) => [...rowOf(name).querySelectorAll('td')].map((td) => td.textContent);
    expect(cells(webinar.campaign_name)).toEqual([
      '120200000000000002',
      webinar.campaign_name,
      // Who turned it off and when, in the viewer's time zone (the run record needs read_rules).
      expect.stringMatching(/^Turned off by rule CPL over \$50 at 3\/2\/2026, \d{1,2}:00 [AP]M$/),
      'Harbor Wealth Advisors',
      'EP',
      'Webinar',
      '3/14/2026',
      '6:30 PM',
      '$1,234.50',
      '30',
      '$41.15',
      '1.49%',
      '$0.80',
      '24',
      '9',
      '37.50%',
      '$137.17',
      '3/14/2026,6:30 PM', // end date in the account's time zone (New York)
      expect.stringMatching(/^3\/2\/2026,\d{1,2}:05 [AP]M$/), // sync date in the viewer's
      '',
    ]);
    expect(cells(seminar.campaign_name).slice(2, 8)).toEqual([
      'Paused by a person',
      'Pacific Coast Planning',
      'TIR',
      'Seminar',
      '3/20/2026',
      '10:00 AM',
    ]);
    expect(cells(seminar.campaign_name)[17]).toBe('3/14/2026,3:30 PM'); // the same instant in Los Angeles
    expect(cells(unparsed.campaign_name)[2]).toBe('On');
    // No event happened: registrations, attendees, show-up and cost per attendee are N/A too.
    expect(cells(unparsed.campaign_name).slice(4, 18)).toEqual([
      'N/A',
      'N/A',
      'N/A',
      'N/A',
      '$0.00',
      '0',
      'N/A',
      'N/A',
      'N/A',
      'N/A',
      'N/A',
      'N/A',
      'N/A',
      'N/A',
    ]);

    const row = within(rowOf(webinar.campaign_name));
    expect(row.getByText('Webinar').closest('.MuiChip-root')).toHaveClass('MuiChip-colorSuccess');
    expect(within(rowOf(seminar.campaign_name)).getByText('Seminar').closest('.MuiChip-root')).toHaveClass(
      'MuiChip-colorWarning',
    );
    expect(row.getByLabelText('3/14/2026, 6:30 PM')).toBeInTheDocument();
  });

  it('sorts by a column of the group and flips the direction', async () => {
    await openCampaigns();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Event Date' }));
    await waitFor(() => expect(lastQuery().ordering).toBe('event_date'));
    await user.click(screen.getByRole('button', { name: 'Event Date' }));
    await waitFor(() => expect(lastQuery().ordering).toBe('-event_date'));
    await user.click(screen.getByRole('button', { name: 'CPL' }));
    await waitFor(() => expect(lastQuery().ordering).toBe('cpl'));
    expect(screen.queryByRole('button', { name: 'Actions' })).not.toBeInTheDocument();
  });

  it('offers page sizes 10, 25, 50, 100 and 250', async () => {
    await openCampaigns();
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: /rows per page/i }));
    const options = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['10', '25', '50', '100', '250']);
    await user.click(options[4]!);
    await waitFor(() => expect(lastQuery().limit).toBe('250'));
  });

  it('shows "of 1,000+" for a lower-bound total and keeps paging by the server\'s next link', async () => {
    server.use(
      http.get(paths.campaigns, ({ request }) => {
        queries.push(new URL(request.url).searchParams);
        return HttpResponse.json({
          count: 1000,
          count_is_estimate: true,
          count_is_lower_bound: true,
          next: 'http://localhost/api/campaigns/?limit=10&offset=10',
          previous: null,
          results: campaigns,
        });
      }),
    );
    await openCampaigns();
    // The rows shown, not a full page, whatever the page size.
    expect(await screen.findByText('1-3 of 1,000+')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: /next page/i }));
    await waitFor(() => expect(lastQuery().offset).toBe('10'));
  });

  it('opens the campaign in Ads Manager in a new tab', async () => {
    await openCampaigns();
    const link = within(rowOf(webinar.campaign_name)).getByRole('link', { name: 'Open in Ads Manager' });
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', expect.stringContaining('noopener'));
    expect(link.getAttribute('href')).toBe(
      'https://adsmanager.facebook.com/adsmanager/manage/campaigns?act=574702335981050&selected_campaign_ids=120200000000000002',
    );
  });

  it('links a campaign to its ads and to the run that turned it off, for those who may open them', async () => {
    await openCampaigns('/campaigns', ['add_edit_campaigns', 'view_logs', 'read_rules']);
    const row = within(rowOf(webinar.campaign_name));
    expect(row.getByRole('link', { name: 'Ads of this campaign' })).toHaveAttribute(
      'href',
      '/ads?campaign_id=120200000000000002',
    );
    expect(row.getByRole('link', { name: 'Open the run record' })).toHaveAttribute('href', '/edit-rule/7?run=31');
    // Without view_logs and read_rules neither is offered (tested above: the plain cells).
    signOut();
    await openCampaigns();
    expect(within(rowOf(webinar.campaign_name)).queryByRole('link', { name: 'Ads of this campaign' })).toBeNull();
  });

  it('refreshes one campaign with a spinner on its row, then a 5 s snackbar with Close', async () => {
    let release!: () => void;
    const answered = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.post(paths.campaignUpdate(':id'), async ({ params }) => {
        refreshes.push(String(params.id));
        await answered;
        return HttpResponse.json({ detail: 'Campaign updated successfully' });
      }),
    );
    await openCampaigns();
    const user = userEvent.setup();
    const row = within(rowOf(webinar.campaign_name));
    const before = queries.length;
    await user.click(row.getByRole('button', { name: 'Refresh campaign' }));
    expect(await row.findByRole('progressbar')).toBeInTheDocument();
    expect(within(rowOf(seminar.campaign_name)).queryByRole('progressbar')).not.toBeInTheDocument();
    release();
    const snackbar = await screen.findByText('Campaign updated successfully');
    expect(row.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(refreshes).toEqual([webinar.campaign_id]);
    await waitFor(() => expect(queries.length).toBeGreaterThan(before)); // the list reloads
    await user.click(
      within(snackbar.closest('.MuiSnackbar-root') as HTMLElement).getByRole('button', { name: 'Close' }),
    );
    await waitFor(() => expect(screen.queryByText('Campaign updated successfully')).not.toBeInTheDocument());
  });

  it('shows the server message when a refresh fails', async () => {
    const consoleErrors = captureConsoleErrors();
    server.use(
      http.post(paths.campaignUpdate(':id'), () =>
        HttpResponse.json(
          { detail: 'The ad platform is busy (rate limit). Try again in a few minutes.' },
          { status: 503 },
        ),
      ),
    );
    await openCampaigns();
    await userEvent
      .setup()
      .click(within(rowOf(seminar.campaign_name)).getByRole('button', { name: 'Refresh campaign' }));
    expect(
      await screen.findByText('The ad platform is busy (rate limit). Try again in a few minutes.'),
    ).toBeInTheDocument();
    expect(loggedHttpStatuses(consoleErrors)).toEqual([503]);
  });

  it('shows "No campaigns found" with a Refresh that syncs and reloads', async () => {
    campaigns = [];
    let synced = 0;
    server.use(
      http.post(paths.campaignsSync, async () => {
        synced += 1;
        await delay(20); // a sync that takes a moment: the list read again before it answers would be empty
        campaigns = [webinar];
        return HttpResponse.json({ detail: 'Campaigns synced successfully' });
      }),
    );
    signIn(withAccesses('add_edit_campaigns'));
    renderApp('/campaigns');
    const empty = (await screen.findByText('No campaigns found')).parentElement!;
    await userEvent.setup().click(within(empty).getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText(webinar.campaign_name)).toBeInTheDocument();
    expect(synced).toBe(1);
    expect(screen.getByText('Campaigns synced successfully')).toBeInTheDocument();
  });

  it('is closed to users without add_edit_campaigns', async () => {
    signIn(withAccesses('read_rules'));
    renderApp('/campaigns');
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent('/access-denied'));
    expect(screen.queryByText(webinar.campaign_name)).not.toBeInTheDocument();
  });
});

describe('Campaigns filter panel', () => {
  const panel = () => screen.getByRole('region', { name: 'Filters' });

  it('shows and hides the filters', async () => {
    await openCampaigns();
    const user = userEvent.setup();
    expect(screen.queryByRole('region', { name: 'Filters' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show Filters' }));
    expect(panel()).toBeInTheDocument();
    for (const label of [
      'Campaign Name',
      'Ad Account Name',
      'Event Type',
      'Topic',
      'Campaign IDs',
      'Event Date From',
      'Event Date To',
      'End Date From',
      'End Date To',
      'Min Spend',
      'Max Spend',
      'Min CPL',
      'Max CPL',
      'Min CTR %',
      'Max CTR %',
      'Min CPC',
      'Max CPC',
      'Min show-up rate (0–1)',
      'Max show-up rate (0–1)',
      'Min cost per attendee',
      'Max cost per attendee',
    ]) {
      expect(within(panel()).getByLabelText(label)).toBeInTheDocument();
    }
    await user.click(screen.getByRole('button', { name: 'Hide Filters' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Filters' })).not.toBeInTheDocument());
  });

  it('sends every filter as the API names it, from the first page', { timeout: 40_000 }, async () => {
    await openCampaigns('/campaigns?page=2');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Show Filters' }));
    const p = within(panel());
    await user.type(p.getByLabelText('Campaign Name'), 'harbor');
    await user.click(p.getByLabelText('Ad Account Name'));
    await user.click(await screen.findByRole('option', { name: 'Pacific Coast Planning' }));
    await user.click(p.getByLabelText('Event Type'));
    await user.click(await screen.findByRole('option', { name: 'Seminar' }));
    await user.click(p.getByLabelText('Topic'));
    await user.click(await screen.findByRole('option', { name: 'EP — Estate Planning' }));
    await user.click(p.getByLabelText('Topic'));
    await user.click(await screen.findByRole('option', { name: 'TIR — Taxes In Retirement' }));
    await user.type(p.getByLabelText('Campaign IDs'), '101, 202');
    const set = (label: string, value: string) => fireEvent.change(p.getByLabelText(label), { target: { value } });
    set('Event Date From', '2026-03-01');
    set('Event Date To', '2026-03-31');
    set('End Date From', '2026-03-02');
    set('End Date To', '2026-04-30');
    set('Min Spend', '100');
    set('Max Spend', '2500.5');
    set('Min CPL', '10');
    set('Max CPL', '60');
    set('Min CTR %', '0.5');
    set('Max CTR %', '3');
    set('Min CPC', '0.2');
    set('Max CPC', '4');
    set('Max show-up rate (0–1)', '0.3');
    set('Min cost per attendee', '50');
    await waitFor(() =>
      expect(lastQuery()).toEqual({
        limit: '10',
        offset: '0',
        ordering: '-campaign_id',
        campaign_name: 'harbor',
        meta_ad_account: other.ad_account_id,
        is_webinar: 'false',
        event_type__in: 'EP,TIR',
        campaign_id__in: '101,202',
        event_date_after: '2026-03-01',
        event_date_before: '2026-03-31',
        end_date_after: '2026-03-02',
        end_date_before: '2026-04-30',
        spend_range_min: '100',
        spend_range_max: '2500.5',
        cpl_annotation_min: '10',
        cpl_annotation_max: '60',
        ctr_annotation_min: '0.5',
        ctr_annotation_max: '3',
        cpc_annotation_min: '0.2',
        cpc_annotation_max: '4',
        show_up_rate_max: '0.3',
        cost_per_attendee_min: '50',
      }),
    );
    // Debounced: typing "harbor" asked the server once, not once per letter.
    expect(
      queries.filter((q) => q.get('campaign_name')?.startsWith('h') && q.get('campaign_name') !== 'harbor'),
    ).toHaveLength(0);
  });

  it('takes numbers only, and holds back an incomplete number with a message', async () => {
    await openCampaigns();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Show Filters' }));
    const minSpend = within(panel()).getByLabelText('Min Spend');
    await user.type(minSpend, '12');
    await user.type(minSpend, 'b');
    expect(minSpend).toHaveValue('12');
    await waitFor(() => expect(lastQuery().spend_range_min).toBe('12'));
    await user.clear(minSpend);
    await user.type(minSpend, '-');
    expect(await within(panel()).findByText('Field must be a number')).toBeInTheDocument();
    // The list asks again after its debounce: without the cleared minimum, and without the '-'.
    await waitFor(() => expect(lastQuery().spend_range_min).toBeUndefined());
    const ids = within(panel()).getByLabelText('Campaign IDs');
    await user.type(ids, '12,3');
    await user.type(ids, 'x');
    expect(ids).toHaveValue('12,3');
  });

  it('keeps the filters in the address, so a bookmark opens the same view', async () => {
    const filter = encodeURIComponent(JSON.stringify({ spend_range_min: '100', event_type__in: ['EP', 'TIR'] }));
    await openCampaigns(`/campaigns?filter=${filter}&order=ASC&page=1&perPage=25&sort=spend`);
    expect(lastQuery()).toMatchObject({
      spend_range_min: '100',
      event_type__in: 'EP,TIR',
      limit: '25',
      ordering: 'spend',
    });
    expect(screen.getByRole('button', { name: 'Hide Filters' })).toBeInTheDocument(); // open: filters are set
    expect(within(panel()).getByLabelText('Min Spend')).toHaveValue('100');
    expect(within(panel()).getByRole('button', { name: 'EP — Estate Planning' })).toBeInTheDocument();

    await userEvent.setup().type(within(panel()).getByLabelText('Max CPL'), '50');
    await waitFor(() =>
      expect(decodeURIComponent(screen.getByTestId('address').textContent!)).toContain('"cpl_annotation_max":"50"'),
    );
  });

  it('clears every filter', async () => {
    const filter = encodeURIComponent(JSON.stringify({ campaign_name: 'harbor', is_webinar: 'true' }));
    await openCampaigns(`/campaigns?filter=${filter}`);
    const user = userEvent.setup();
    expect(within(panel()).getByLabelText('Campaign Name')).toHaveValue('harbor');
    await user.click(screen.getByRole('button', { name: 'Clear Filters' }));
    await waitFor(() => expect(lastQuery()).toEqual({ limit: '10', offset: '0', ordering: '-campaign_id' }));
    expect(within(panel()).getByLabelText('Campaign Name')).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Clear Filters' })).toBeDisabled();
  });
});
