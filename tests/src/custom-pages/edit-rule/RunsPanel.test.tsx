import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createTheme, hexToRgb, type ThemeOptions } from '@mui/material/styles';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RuleRunDto } from '../../../../shared/contracts';
import type { RuleDto } from '../../../../shared/rules';
import { paths } from '../../../../src/providers/apiPaths';
import { theme } from '../../../../src/theme';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderApp, signIn, signOut } from '../../../support/renderApp';
import { withAccesses } from '../../../support/users';
import { rule, timezones, uncheckedAccount } from '../../fixtures/rules';

const server = setupMswServer();

function run(id: number, overrides: Partial<RuleRunDto> = {}): RuleRunDto {
  return {
    id,
    rule_id: 5,
    slot: '2026-03-02T12:00:00.000Z',
    started_at: '2026-03-02T12:00:05.000Z',
    finished_at: '2026-03-02T12:00:09.000Z',
    trigger: 'schedule',
    outcome: 'done',
    note: '1 turn-off',
    error: null,
    counts: { objects: 3, acted: 1, under_threshold: 1, no_data: 1 },
    decision: null,
    decided_by: null,
    decided_at: null,
    ...overrides,
  };
}

const doneRun = run(31, {
  objects: [
    {
      type: 'ad',
      id: '120001',
      name: 'Scenario - CPL Climbs',
      campaign_id: '110001',
      campaign_name: 'EDM EP-W 2026-03-04 6PM',
      crossed: 'CPL $62.10 > $50.00',
      metrics: {
        spend: 186.3,
        leads: 3,
        website_leads: 0,
        link_clicks: 40,
        clicks: 52,
        impressions: 4000,
        ctr: 1.3,
        cpc: 3.58,
      },
      verdicts: { trigger_cpl: 'acted', spend_cpl_no_leads: 'under_threshold' },
    },
    {
      type: 'ad',
      id: '120002',
      name: 'Scenario - Quiet',
      campaign_id: '110001',
      campaign_name: 'EDM EP-W 2026-03-04 6PM',
      crossed: null,
      metrics: null,
      verdicts: { trigger_cpl: 'no_data' },
    },
    {
      type: 'ad',
      id: '120003',
      name: 'Scenario - Undone',
      campaign_id: '110002',
      campaign_name: '',
      crossed: null,
      metrics: {
        spend: 90,
        leads: 1,
        website_leads: 0,
        link_clicks: 3,
        clicks: 4,
        impressions: 800,
        ctr: 0.5,
        cpc: 22.5,
      },
      verdicts: { trigger_cpl: 'exempt' },
    },
  ],
  planned: [],
  problems: ['trigger_ctr: the threshold is not a number'],
  limits: null,
});

const heldRun = run(32, {
  trigger: 'run_now',
  outcome: 'held',
  note: 'held: would turn off 3 of 4 delivering ads',
  counts: { objects: 4, held: 3, under_threshold: 1 },
  decision: 'pending',
  objects: [
    {
      type: 'ad',
      id: '120010',
      name: 'Held ad',
      campaign_id: '110003',
      campaign_name: 'EDM EP-W 2026-03-05 6PM',
      crossed: 'Spend $50.00 > $40.00 · Leads 0',
      metrics: {
        spend: 50,
        leads: 0,
        website_leads: 0,
        link_clicks: 0,
        clicks: 0,
        impressions: 900,
        ctr: 0,
        cpc: null,
      },
      verdicts: { spend_cpl_no_leads: 'held' },
    },
  ],
  planned: [],
  problems: [],
  limits: { affected: 3, delivering: 4, actions: 3, max_share: 0.5, max_actions: 25 },
});

let loaded: RuleDto;
let runs: RuleRunDto[];
let details: Record<number, RuleRunDto>;
let patches: Record<string, unknown>[];
let exemptions: { object_id: string; created_at: string }[];
let decisions: string[];

beforeEach(() => {
  signOut();
  loaded = rule(5);
  runs = [
    run(32, { ...heldRun, objects: undefined, planned: undefined, problems: undefined, limits: undefined }),
    run(31),
  ];
  details = { 31: doneRun, 32: heldRun };
  patches = [];
  exemptions = [{ object_id: '120003', created_at: '2026-03-01T10:00:00.000Z' }];
  decisions = [];
  server.use(
    http.get(paths.rule(5), () => HttpResponse.json(loaded)),
    http.patch(paths.rule(5), async ({ request }) => {
      const patch = (await request.json()) as Record<string, unknown>;
      patches.push(patch);
      loaded = { ...loaded, ...patch };
      return HttpResponse.json(loaded);
    }),
    http.get(paths.ruleTimezones, () => HttpResponse.json(timezones)),
    http.get(paths.ruleRuns(5), ({ request }) => {
      const url = new URL(request.url);
      const limit = Number(url.searchParams.get('limit'));
      const offset = Number(url.searchParams.get('offset'));
      return HttpResponse.json({
        count: runs.length,
        next: offset + limit < runs.length ? 'next' : null,
        previous: null,
        results: runs.slice(offset, offset + limit),
      });
    }),
    http.get(paths.ruleRun(':id'), ({ params }) => {
      const found = details[Number(params.id)];
      return found ? HttpResponse.json(found) : HttpResponse.json({ detail: 'Not found.' }, { status: 404 });
    }),
    http.post(paths.ruleRunApprove(32), () => {
      if (decisions.length)
        return HttpResponse.json({ detail: 'This held run was already approved.' }, { status: 409 });
      decisions.push('approve');
      details[32] = { ...heldRun, decision: 'approved', decided_by: 'Ada Lovelace' };
      runs[0] = { ...runs[0]!, decision: 'approved', decided_by: 'Ada Lovelace' };
      return HttpResponse.json({
        status: 'done',
        detail: '3 turn-offs',
        turned_off: 3,
        failed: 0,
        held_run: details[32],
        run: null,
      });
    }),
    http.post(paths.ruleRunDismiss(32), () => {
      decisions.push('dismiss');
      details[32] = { ...heldRun, decision: 'dismissed', decided_by: 'Ada Lovelace' };
      return HttpResponse.json(details[32]);
    }),
    http.get(paths.ruleExemptions(5), () =>
      HttpResponse.json({ count: exemptions.length, next: null, previous: null, results: exemptions }),
    ),
    http.delete(paths.ruleExemption(5, '120003'), () => {
      exemptions = [];
      return new HttpResponse(null, { status: 204 });
    }),
    http.get(paths.generalPage, () => HttpResponse.json({ count: 0, next: null, previous: null, results: [] })),
    http.get(paths.ruleConflicts(5), () => HttpResponse.json([])),
    http.get(paths.accountHealth('act_1'), () => HttpResponse.json(uncheckedAccount)),
  );
});

const runsTable = () => screen.findByRole('table', { name: 'Runs' });

async function openEditor(address = '/edit-rule/5') {
  renderApp(address);
  await screen.findByRole('textbox', { name: 'Rule name' });
  return userEvent.setup();
}

describe('Runs panel', () => {
  it('lists the last runs newest first with when, why, outcome and counts', async () => {
    signIn(withAccesses('read_rules', 'create_update_rules'));
    await openEditor();
    const table = await runsTable();
    const rows = within(table).getAllByRole('row');
    expect(
      within(rows[0]!)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['', 'When', 'Why', 'Outcome', 'Counts']);
    expect(rows[1]).toHaveTextContent('Run now');
    expect(rows[1]).toHaveTextContent('Held');
    expect(rows[1]).toHaveTextContent('4 looked at · 3 held · 1 under the thresholds');
    const done = rows.find((r) => r.textContent?.includes('Schedule'))!;
    expect(done).toHaveTextContent('Done');
    expect(done).toHaveTextContent('3 looked at · 1 turned off · 1 without data · 1 under the thresholds');
  });

  it('opens a run: the objects acted on first, by name and campaign before the id, with the value that crossed; those without data folded', async () => {
    signIn(withAccesses('read_rules', 'create_update_rules'));
    const user = await openEditor();
    await runsTable();
    await user.click(screen.getByRole('button', { name: 'Show run 31' }));
    const detail = await screen.findByTestId('run-detail-31');
    const rows = within(detail).getAllByTestId(/^run-object-/);
    expect(rows.map((row) => row.dataset.testid)).toEqual(['run-object-120001', 'run-object-120003']);
    const climbs = rows[0]!;
    expect(climbs).toHaveTextContent(
      /^Scenario - CPL ClimbsCampaign: EDM EP-W 2026-03-04 6PMAd 120001CPL \$62\.10 > \$50\.00Spend: \$186\.30/,
    );
    expect(climbs).toHaveTextContent(
      'Spend: $186.30 · Leads: 3 · Link clicks: 40 · CTR: 1.30% · CPC: $3.58 · Impressions: 4000',
    );
    expect(climbs).toHaveTextContent('Turned off — Turn off the ad if CPL is above a value');
    expect(climbs).toHaveTextContent('Under threshold — Turn off the ad if spend is above a value and leads are 0');
    // An acted verdict reads as the rule doing its job, not as an error.
    const palette = createTheme(theme as ThemeOptions).palette;
    const rgb = (color: string) => (color.startsWith('#') ? hexToRgb(color) : color);
    expect(getComputedStyle(within(climbs).getByText('Turned off')).color).toBe(rgb(palette.success.dark));
    // The older run kept no campaign name: the id stands alone.
    expect(rows[1]).toHaveTextContent(/^Scenario - UndoneAd 120003/);
    expect(rows[1]).toHaveTextContent('Exempt');
    expect(within(detail).getByText('Not checked: trigger_ctr: the threshold is not a number')).toBeInTheDocument();

    await user.click(within(detail).getByRole('button', { name: '1 ad without data' }));
    const quiet = within(detail).getByTestId('run-object-120002');
    expect(quiet).toHaveTextContent('No insights');
    expect(quiet).toHaveTextContent('No data — Turn off the ad if CPL is above a value');
    await user.click(within(detail).getByRole('button', { name: 'Hide the ad without data' }));
    expect(within(detail).queryByTestId('run-object-120002')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Hide run 31' }));
    await waitFor(() => expect(screen.queryByTestId('run-detail-31')).not.toBeInTheDocument());
  });

  it('shows a held run’s limits; Approve asks first, carries it out and then says who approved', async () => {
    signIn(withAccesses('read_rules', 'create_update_rules'));
    const user = await openEditor();
    await runsTable();
    await user.click(screen.getByRole('button', { name: 'Show run 32' }));
    const detail = await screen.findByTestId('run-detail-32');
    expect(
      within(detail).getByText(
        'Held: it would turn off 3 of 4 delivering ads (planned turn-offs: 3). A run may turn off at most 50% of the delivering ads and 25 objects.',
      ),
    ).toBeInTheDocument();
    expect(within(detail).getByTestId('run-object-120010')).toHaveTextContent('Held — ');
    expect(within(detail).getByTestId('run-object-120010')).toHaveTextContent('Spend $50.00 > $40.00 · Leads 0');
    await user.click(within(detail).getByRole('button', { name: 'Approve the held changes of run 32' }));
    const confirm = await screen.findByRole('dialog', { name: 'Carry out the held changes?' });
    expect(decisions).toEqual([]);
    await user.click(within(confirm).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Approved: 3 turned off')).toBeInTheDocument();
    expect(decisions).toEqual(['approve']);
    expect(
      await within(screen.getByTestId('run-detail-32')).findByText('Approved by Ada Lovelace'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Approve the held changes of run 32' })).not.toBeInTheDocument();
    // The run's outcome follows what happened: approved, no longer "Held".
    const row = screen.getByRole('button', { name: 'Hide run 32' }).closest('tr')!;
    await waitFor(() => expect(row).toHaveTextContent('Approved'));
    expect(row).not.toHaveTextContent('Held');
    // And so does each object's verdict.
    await waitFor(() =>
      expect(screen.getByTestId('run-object-120010')).toHaveTextContent('Held, then approved: turned off — '),
    );
  });

  it('Dismiss drops a held run and the run says so', async () => {
    signIn(withAccesses('read_rules', 'create_update_rules'));
    const user = await openEditor();
    await runsTable();
    await user.click(screen.getByRole('button', { name: 'Show run 32' }));
    const detail = await screen.findByTestId('run-detail-32');
    await user.click(within(detail).getByRole('button', { name: 'Dismiss the held changes of run 32' }));
    expect(await within(detail).findByText('Dismissed by Ada Lovelace')).toBeInTheDocument();
    expect(decisions).toEqual(['dismiss']);
    await waitFor(() =>
      expect(screen.getByTestId('run-object-120010')).toHaveTextContent('Held, then dismissed: left on — '),
    );
  });

  it('a reader without create_update_rules sees a held run waiting, without Approve or Dismiss', async () => {
    signIn(withAccesses('read_rules'));
    const user = await openEditor();
    await runsTable();
    await user.click(screen.getByRole('button', { name: 'Show run 32' }));
    const detail = await screen.findByTestId('run-detail-32');
    expect(within(detail).getByText('Waiting for approval')).toBeInTheDocument();
    expect(within(detail).queryByRole('button', { name: /Approve|Dismiss/ })).not.toBeInTheDocument();
  });

  it('opens the run named in ?run= (the link from Activity)', async () => {
    signIn(withAccesses('read_rules', 'create_update_rules'));
    await openEditor('/edit-rule/5?run=31');
    const detail = await screen.findByTestId('run-detail-31');
    expect(within(detail).getByTestId('run-object-120001')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Hide run 31' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('pages through more than ten runs, newest first', async () => {
    signIn(withAccesses('read_rules'));
    runs = Array.from({ length: 12 }, (_, i) =>
      run(100 - i, { started_at: new Date(Date.UTC(2026, 2, 20 - i, 12)).toISOString(), trigger: 'schedule' }),
    );
    const user = await openEditor();
    const table = await runsTable();
    expect(within(table).getAllByRole('button', { name: /^Show run/ })).toHaveLength(10);
    expect(within(table).getAllByRole('button', { name: /^Show run/ })[0]).toHaveAccessibleName('Show run 100');
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    await waitFor(() => expect(screen.getAllByRole('button', { name: /^Show run/ })).toHaveLength(2));
    expect(screen.getAllByRole('button', { name: /^Show run/ }).map((b) => b.getAttribute('aria-label'))).toEqual([
      'Show run 90',
      'Show run 89',
    ]);
  });

  it('says when the rule has not run yet', async () => {
    signIn(withAccesses('read_rules'));
    runs = [];
    await openEditor();
    expect(await screen.findByText('The rule has not run yet.')).toBeInTheDocument();
  });
});

describe('Notify only switch', () => {
  it('saves on its own with PATCH {notify_only} and stays on the editor', async () => {
    signIn(withAccesses('read_rules', 'create_update_rules'));
    const user = await openEditor();
    const toggle = screen.getByRole('switch', { name: 'Notify only' });
    expect(toggle).not.toBeChecked();
    await user.click(toggle);
    expect(await screen.findByText('Notify only: the rule turns nothing off from now on.')).toBeInTheDocument();
    expect(patches).toEqual([{ notify_only: true }]);
    expect(toggle).toBeChecked();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.click(toggle);
    await waitFor(() => expect(patches).toEqual([{ notify_only: true }, { notify_only: false }]));
    await waitFor(() => expect(toggle).not.toBeChecked());
    expect(screen.getByTestId('address')).toHaveTextContent('/edit-rule/5');
  });

  it('is off limits without create_update_rules', async () => {
    signIn(withAccesses('read_rules'));
    loaded = rule(5, { notify_only: true });
    await openEditor();
    const toggle = screen.getByRole('switch', { name: 'Notify only' });
    expect(toggle).toBeChecked();
    expect(toggle).toBeDisabled();
  });
});

describe('Exemptions', () => {
  it('lists the rule’s exemptions; Remove lets the rule act on the object again', async () => {
    signIn(withAccesses('read_rules', 'create_update_rules'));
    const user = await openEditor();
    const list = await screen.findByRole('list', { name: 'Exemptions' });
    expect(within(list).getByText('120003')).toBeInTheDocument();
    await user.click(within(list).getByRole('button', { name: 'Remove the exemption of 120003' }));
    expect(await screen.findByText('Exemption removed: the rule can turn 120003 off again.')).toBeInTheDocument();
    expect(
      await screen.findByText('None: the rule may act on every ad and campaign its filters match.'),
    ).toBeInTheDocument();
  });

  it('has no Remove without create_update_rules', async () => {
    signIn(withAccesses('read_rules'));
    await openEditor();
    const list = await screen.findByRole('list', { name: 'Exemptions' });
    expect(within(list).getByText('120003')).toBeInTheDocument();
    expect(within(list).queryByRole('button')).not.toBeInTheDocument();
  });
});
