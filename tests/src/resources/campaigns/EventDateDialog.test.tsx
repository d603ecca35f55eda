/**
 * Choosing a campaign's event date by hand on the Campaigns screen, against msw: a campaign whose
 * name gives no date offers "Set event date"; its dialog lists the folder's Demio dates in the ad
 * account's time zone, posts the one chosen, and the row then shows it and offers to change it;
 * a chosen date can be cleared; the server's refusal is shown in the dialog; without the rules
 * permission there is no such action.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { CampaignEventDates, ChosenEventDate } from '../../../../shared/campaignEventDates';
import { paths } from '../../../../src/providers/apiPaths';
import { captureConsoleErrors } from '../../../support/consoleErrors';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
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
const dated = {
  id: '120200000000000002',
  campaign_id: '120200000000000002',
  campaign_name: 'EDM - EP-W - 03/14/2026 6:30 PM - Harbor',
  status: 'ACTIVE',
  effective_status: 'ACTIVE',
  meta_ad_account: account,
  campaignextension: { topic: 'EP', is_webinar: true, event_date: '2026-03-14', event_time: '18:30' },
  chosen_event_at: null,
  spend: 1234.5,
  leads: 30,
  actions: [],
  cpl: 41.15,
  ctr: 1.4896,
  cpc: 0.8,
  end_date: null,
  updated_at: '2026-03-02T15:05:00.000Z',
  registrations: null,
  attendees: null,
  show_up_rate: null,
  cost_per_attendee: null,
};
const evergreen = {
  ...dated,
  id: '120200000000000001',
  campaign_id: '120200000000000001',
  campaign_name: 'EDM - RP-W - Harbor evergreen',
  campaignextension: { topic: 'RP', is_webinar: true, event_date: null, event_time: null },
};

// 22:30 UTC is 6:30 PM in New York (daylight time from March 8).
const OPTIONS: CampaignEventDates['options'] = [
  { event_id: 7, event_name: 'Retirement Planning 101', date_id: 71, starts_at: '2026-03-14T22:30:00.000Z' },
  { event_id: 7, event_name: 'Retirement Planning 101', date_id: 72, starts_at: '2026-03-21T14:00:00.000Z' },
];

let chosenAt: string | null;
let posted: ChosenEventDate[];

const answer = (): CampaignEventDates => ({
  name_has_date: false,
  dates: chosenAt
    ? [
        {
          event_id: 7,
          date_id: OPTIONS.find((o) => o.starts_at === chosenAt)!.date_id,
          starts_at: chosenAt,
          source: 'chosen',
        },
      ]
    : [],
  options: OPTIONS,
});

beforeEach(() => {
  signOut();
  chosenAt = null;
  posted = [];
  server.use(
    http.get(paths.campaigns, () =>
      HttpResponse.json({
        count: 2,
        next: null,
        previous: null,
        results: [dated, { ...evergreen, chosen_event_at: chosenAt }],
      }),
    ),
    http.get(paths.metaAdAccounts, () =>
      HttpResponse.json({ count: 1, next: null, previous: null, results: [account] }),
    ),
    http.get(paths.campaignEventDates(':id'), () => HttpResponse.json(answer())),
    http.post(paths.campaignEventDate(':id'), async ({ request, params }) => {
      expect(params.id).toBe(evergreen.campaign_id);
      const choice = (await request.json()) as ChosenEventDate;
      posted.push(choice);
      chosenAt = OPTIONS.find((o) => o.date_id === choice.date_id)?.starts_at ?? null;
      return HttpResponse.json(answer());
    }),
  );
});

const editors = withAccesses('add_edit_campaigns', 'create_update_rules');
const rowOf = (text: string) => screen.getByText(text).closest('tr')!;

async function openCampaigns(accesses = editors) {
  signIn(accesses);
  renderApp('/campaigns');
  await screen.findByText(evergreen.campaign_name);
}

describe('Campaigns: choosing an event date by hand', () => {
  it('sets the date of a campaign whose name gives none, and the row then shows it', async () => {
    const user = userEvent.setup();
    await openCampaigns();
    expect(within(rowOf(dated.campaign_name)).queryByRole('button', { name: 'Set event date' })).toBeNull();
    await user.click(within(rowOf(evergreen.campaign_name)).getByRole('button', { name: 'Set event date' }));

    const dialog = await screen.findByRole('dialog', { name: /Event date/ });
    expect(within(dialog).getByText(evergreen.campaign_name)).toBeInTheDocument();
    expect(within(dialog).getByText('Times in America/New_York, the ad account’s time zone.')).toBeInTheDocument();
    const save = within(dialog).getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    await user.click(await within(dialog).findByRole('combobox', { name: 'Demio event date' }));
    const listbox = await screen.findByRole('listbox');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['3/14/2026, 6:30 PM · Retirement Planning 101', '3/21/2026, 10:00 AM · Retirement Planning 101']);
    await user.click(within(listbox).getByRole('option', { name: /3\/14\/2026, 6:30 PM/ }));
    await user.click(save);

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posted).toEqual([{ event_id: 7, date_id: 71 }]);
    expect(await screen.findByText('Event date saved')).toBeInTheDocument();
    const row = rowOf(evergreen.campaign_name);
    expect(await within(row).findByText('3/14/2026')).toBeInTheDocument();
    expect(within(row).getByText('6:30 PM')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Change event date' })).toBeInTheDocument();
  });

  it('shows a chosen date, changes it, and clears it', async () => {
    chosenAt = OPTIONS[0]!.starts_at;
    const user = userEvent.setup();
    await openCampaigns();
    const row = rowOf(evergreen.campaign_name);
    expect(within(row).getByText('3/14/2026')).toBeInTheDocument();

    await user.click(within(row).getByRole('button', { name: 'Change event date' }));
    let dialog = await screen.findByRole('dialog', { name: /Event date/ });
    expect(await within(dialog).findByText('Chosen: 3/14/2026, 6:30 PM')).toBeInTheDocument();
    expect(within(dialog).getByRole('combobox', { name: 'Demio event date' })).toHaveTextContent(
      '3/14/2026, 6:30 PM · Retirement Planning 101',
    );
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.click(within(dialog).getByRole('combobox', { name: 'Demio event date' }));
    await user.click(await screen.findByRole('option', { name: /3\/21\/2026, 10:00 AM/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await within(rowOf(evergreen.campaign_name)).findByText('10:00 AM')).toBeInTheDocument();

    await user.click(within(rowOf(evergreen.campaign_name)).getByRole('button', { name: 'Change event date' }));
    dialog = await screen.findByRole('dialog', { name: /Event date/ });
    await user.click(await within(dialog).findByRole('button', { name: 'Clear date' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posted).toEqual([
      { event_id: 7, date_id: 72 },
      { event_id: null, date_id: null },
    ]);
    expect(await screen.findByText('Event date cleared')).toBeInTheDocument();
    expect(
      await within(rowOf(evergreen.campaign_name)).findByRole('button', { name: 'Set event date' }),
    ).toBeInTheDocument();
  });

  it('shows the server’s refusal in the dialog and keeps it open', async () => {
    captureConsoleErrors();
    server.use(
      http.post(paths.campaignEventDate(':id'), () =>
        HttpResponse.json({ date_id: ["This date is not one of the folder's Demio event dates."] }, { status: 400 }),
      ),
    );
    const user = userEvent.setup();
    await openCampaigns();
    await user.click(within(rowOf(evergreen.campaign_name)).getByRole('button', { name: 'Set event date' }));
    const dialog = await screen.findByRole('dialog', { name: /Event date/ });
    await user.click(await within(dialog).findByRole('combobox', { name: 'Demio event date' }));
    await user.click(await screen.findByRole('option', { name: /3\/14\/2026/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      "Date id: This date is not one of the folder's Demio event dates.",
    );
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('says when the folder offers no Demio date', async () => {
    server.use(
      http.get(paths.campaignEventDates(':id'), () =>
        HttpResponse.json({ name_has_date: false, dates: [], options: [] } satisfies CampaignEventDates),
      ),
    );
    const user = userEvent.setup();
    await openCampaigns();
    await user.click(within(rowOf(evergreen.campaign_name)).getByRole('button', { name: 'Set event date' }));
    const dialog = await screen.findByRole('dialog', { name: /Event date/ });
    expect(await within(dialog).findByText(/No Demio date to choose from/)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('offers no date choice to those who do not edit rules', async () => {
    await openCampaigns(withAccesses('add_edit_campaigns'));
    expect(within(rowOf(evergreen.campaign_name)).queryByRole('button', { name: 'Set event date' })).toBeNull();
  });
});
