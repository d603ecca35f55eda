import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { paths } from '../../../../src/providers/apiPaths';
import { RuleRunActions } from '../../../../src/layout/runs/RuleRunActions';
import type { PreviewResult, RunNowResult } from '../../../../shared/ruleRuns';
import { captureConsoleErrors, loggedHttpStatuses } from '../../../support/consoleErrors';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderWithAdmin, signIn, signOut } from '../../../support/renderApp';
import { withAccesses } from '../../../support/users';

const server = setupMswServer();

const preview: PreviewResult = {
  rule: { id: 5, name: 'No leads after $40' },
  account: { ad_account_id: 'act_1', account_name: 'Acme Ads' },
  checked_at: '2025-03-04T10:15:00Z',
  count: 1,
  delivering: 27,
  results: [
    {
      action: 'turn_off_ad',
      ad_id: '120001',
      ad_name: 'Adviser video, March',
      campaign_id: '9',
      campaign_name: 'EDM SS-W 2025-03-04 6PM',
      task: 'spend_cpl_no_leads',
      reason: { Spend: '$60.00 > $40.00', Leads: '0' },
    },
  ],
  exempt: ['120007'],
  problems: [],
};
const ran: RunNowResult = {
  status: 'done',
  detail: '1 turn-off',
  turned_off: 1,
  failed: 0,
  results: [
    {
      id: 21,
      created_at: '2025-03-04T10:16:00Z',
      action: 'turn_off_ad',
      ad_id: '120001',
      object_type: 'ad',
      reason: {
        Spend: '$60.00 > $40.00',
        Leads: '0',
        Campaign: 'EDM SS-W 2025-03-04 6PM',
        Ad: 'Adviser video, March',
        Run: 'Run now by Ada Lovelace',
      },
      undone_at: null,
      exempt: false,
      rule: null,
    },
  ],
};

let runs: number;

beforeEach(() => {
  signOut();
  runs = 0;
  server.use(
    http.get(paths.rulePreview(5), () => HttpResponse.json(preview)),
    http.post(paths.ruleRunNow(5), () => {
      runs += 1;
      return HttpResponse.json(ran);
    }),
  );
});

describe('Preview and Run now', () => {
  it('are not offered without create_update_rules', () => {
    signIn(withAccesses('read_rules', 'view_logs'));
    renderWithAdmin(<RuleRunActions ruleId={5} name="No leads after $40" />);
    expect(screen.queryByRole('button', { name: /Preview/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Run/ })).toBeNull();
  });

  it('previews what would be turned off and why, without running anything', async () => {
    signIn(withAccesses('create_update_rules'));
    renderWithAdmin(<RuleRunActions ruleId={5} name="No leads after $40" />);
    await userEvent
      .setup()
      .click(screen.getByRole('button', { name: 'Preview what No leads after $40 would turn off' }));
    const dialog = await screen.findByRole('dialog', { name: 'Preview: No leads after $40' });
    // The total first, then each ad by its name and campaign before its id.
    expect(within(dialog).getByText('Would turn off 1 of 27 delivering ads')).toBeInTheDocument();
    const row = (await within(dialog).findByText('Adviser video, March')).closest('tr')!;
    expect(within(row).getByText('EDM SS-W 2025-03-04 6PM · 120001')).toBeInTheDocument();
    expect(row).toHaveTextContent('turn off ad');
    expect(row).toHaveTextContent('Turn off the ad if spend is above a value and leads are 0');
    expect(row).toHaveTextContent('Spend:$60.00 > $40.00');
    expect(dialog).toHaveTextContent(
      'What the rule would turn off right now in Acme Ads, and why. Nothing is changed.',
    );
    expect(dialog).toHaveTextContent('Left alone because a user undid the rule’s turn-off: 120007');
    expect(runs).toBe(0);
  });

  it('on a phone, opens full screen and lists what it would turn off, then what it did, as cards', async () => {
    // Below MUI's sm breakpoint: every max-width query matches.
    const matchMedia = window.matchMedia;
    window.matchMedia = (query: string) => ({ ...matchMedia(query), matches: query.includes('max-width') });
    try {
      signIn(withAccesses('create_update_rules'));
      renderWithAdmin(<RuleRunActions ruleId={5} name="No leads after $40" />);
      const user = userEvent.setup();
      await user.click(screen.getByRole('button', { name: 'Preview what No leads after $40 would turn off' }));
      const dialog = await screen.findByRole('dialog', { name: 'Preview: No leads after $40' });
      expect(dialog).toHaveClass('MuiDialog-paperFullScreen');
      const cards = await within(dialog).findByRole('list', { name: 'What the rule would do' });
      expect(within(dialog).queryByRole('table')).toBeNull();
      const card = within(cards).getByRole('listitem');
      expect(card).toHaveTextContent('turn off ad');
      expect(within(card).getByText('Adviser video, March')).toBeInTheDocument();
      expect(within(card).getByText('EDM SS-W 2025-03-04 6PM · 120001')).toBeInTheDocument();
      expect(card).toHaveTextContent('Task: Turn off the ad if spend is above a value and leads are 0');
      expect(card).toHaveTextContent('Spend:$60.00 > $40.00');

      await user.click(within(dialog).getByRole('button', { name: 'Run now' }));
      expect(await within(dialog).findByText('1 turned off')).toBeInTheDocument();
      const done = within(within(dialog).getByRole('list', { name: 'What the run did' })).getByRole('listitem');
      expect(done).toHaveTextContent('Adviser video, March');
      expect(done).toHaveTextContent('EDM SS-W 2025-03-04 6PM · 120001');
      expect(done).toHaveTextContent('Run:Run now by Ada Lovelace');
      expect(done).not.toHaveTextContent('Task:');
    } finally {
      window.matchMedia = matchMedia;
    }
  });

  it('says so when nothing would be turned off, and offers no run from the preview', async () => {
    server.use(
      http.get(paths.rulePreview(5), () => HttpResponse.json({ ...preview, count: 0, results: [], exempt: [] })),
    );
    signIn(withAccesses('create_update_rules'));
    renderWithAdmin(<RuleRunActions ruleId={5} name="No leads after $40" />);
    await userEvent
      .setup()
      .click(screen.getByRole('button', { name: 'Preview what No leads after $40 would turn off' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText(/Nothing crosses the thresholds right now/)).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Run now' })).toBeNull();
  });

  it('asks first, saying from Preview what the run would turn off, by name; then runs and names what it turned off', async () => {
    signIn(withAccesses('create_update_rules'));
    renderWithAdmin(<RuleRunActions ruleId={5} name="No leads after $40" />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Run now: No leads after $40' }));
    const dialog = await screen.findByRole('dialog', { name: 'Run "No leads after $40" now?' });
    expect(await within(dialog).findByText('Turn off 1 ad')).toBeInTheDocument();
    expect(dialog).toHaveTextContent('1 of 27 delivering ads in Acme Ads, as the numbers stand now.');
    const named = within(within(dialog).getByRole('list', { name: 'What the run would turn off' })).getByRole(
      'listitem',
    );
    expect(named).toHaveTextContent('Adviser video, March · EDM SS-W 2025-03-04 6PM · 120001');
    expect(dialog).toHaveTextContent('The run acts at once, outside the rule’s schedule.');
    expect(within(dialog).queryByText(/held for approval/)).toBeNull();
    expect(runs).toBe(0);
    await user.click(within(dialog).getByRole('button', { name: 'Run now' }));
    expect(await within(dialog).findByText('1 turned off')).toBeInTheDocument();
    expect(runs).toBe(1);
    // What it turned off, by name with its campaign and id beneath.
    const row = within(dialog).getByText('Adviser video, March').closest('tr')!;
    expect(row).toHaveTextContent('EDM SS-W 2025-03-04 6PM · 120001');
    expect(row).toHaveTextContent('Run:Run now by Ada Lovelace');
    expect(within(dialog).getByRole('link', { name: 'Open Activity' })).toHaveAttribute('href', '/activity?rule_id=5');
  });

  it('says before running that the blast-radius limit will hold the run, and how many it would turn off', async () => {
    const many = Array.from({ length: 7 }, (_, i) => ({
      ...preview.results[0]!,
      ad_id: `12000${i}`,
      ad_name: `Ad ${i}`,
    }));
    server.use(
      http.get(paths.rulePreview(5), () =>
        HttpResponse.json({
          ...preview,
          count: 7,
          delivering: 10,
          results: many,
          notify_only: false,
          hold: {
            held: true,
            summary: 'would turn off 7 of 10 delivering ads (70%, limit 50%)',
            affected: 7,
            delivering: 10,
            actions: 7,
            max_share: 0.5,
            max_actions: 25,
          },
        } satisfies PreviewResult),
      ),
    );
    signIn(withAccesses('create_update_rules'));
    renderWithAdmin(<RuleRunActions ruleId={5} name="No leads after $40" />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Run now: No leads after $40' }));
    const dialog = await screen.findByRole('dialog', { name: 'Run "No leads after $40" now?' });
    expect(await within(dialog).findByText('Turn off 7 ads')).toBeInTheDocument();
    expect(dialog).toHaveTextContent(
      'Over the blast-radius limit: the run will be held for approval and change nothing until someone approves it. It would turn off 7 of 10 delivering ads (70%, limit 50%).',
    );
    // The first five by name, then how many more.
    expect(within(dialog).getByText('… and 2 more')).toBeInTheDocument();
    expect(runs).toBe(0);
  });

  it('still offers Run now when Preview cannot answer, saying it could not check first', async () => {
    const consoleErrors = captureConsoleErrors();
    server.use(
      http.get(paths.rulePreview(5), () =>
        HttpResponse.json({ detail: 'The ad platform did not answer: timeout' }, { status: 502 }),
      ),
    );
    signIn(withAccesses('create_update_rules'));
    renderWithAdmin(<RuleRunActions ruleId={5} name="No leads after $40" />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Run now: No leads after $40' }));
    const dialog = await screen.findByRole('dialog', { name: 'Run "No leads after $40" now?' });
    expect(
      await within(dialog).findByText(
        'What the run would do could not be checked first: The ad platform did not answer: timeout',
      ),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Run now' }));
    expect(await within(dialog).findByText('1 turned off')).toBeInTheDocument();
    expect(loggedHttpStatuses(consoleErrors)).toEqual([502]);
  });

  it.each([
    [
      'notify_only',
      'notify only: 1 turn-off not made',
      'The rule is notify only: nothing was turned off. Activity lists what it would have turned off.',
    ],
    [
      'held',
      'held: would turn off 3 of 4 delivering ads',
      'Nothing was changed: the run is held for approval. Approve or dismiss it in Activity or in the rule’s Runs panel.',
    ],
  ] as const)('says what a %s run did instead of turning anything off', async (status, detail, wording) => {
    server.use(
      http.post(paths.ruleRunNow(5), () =>
        HttpResponse.json({ status, detail, turned_off: 0, failed: 0, results: [] } satisfies RunNowResult),
      ),
    );
    signIn(withAccesses('create_update_rules'));
    renderWithAdmin(<RuleRunActions ruleId={5} name="No leads after $40" />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Run now: No leads after $40' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByRole('button', { name: 'Run now' }));
    expect(await within(dialog).findByText(wording)).toBeInTheDocument();
    expect(within(dialog).getByText(detail)).toBeInTheDocument();
    expect(within(dialog).queryByText(/Nothing crossed the thresholds/)).toBeNull();
  });

  it('shows the ad platform’s failure in the dialog', async () => {
    const consoleErrors = captureConsoleErrors();
    server.use(
      http.get(paths.rulePreview(5), () =>
        HttpResponse.json(
          { detail: 'The ad platform did not answer: (#17) User request limit reached' },
          { status: 502 },
        ),
      ),
    );
    signIn(withAccesses('create_update_rules'));
    renderWithAdmin(<RuleRunActions ruleId={5} name="No leads after $40" />);
    await userEvent
      .setup()
      .click(screen.getByRole('button', { name: 'Preview what No leads after $40 would turn off' }));
    expect(await screen.findByText(/User request limit reached/)).toBeInTheDocument();
    expect(loggedHttpStatuses(consoleErrors)).toEqual([502]);
  });
});
