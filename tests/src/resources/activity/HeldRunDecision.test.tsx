import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RuleRunDto } from '../../../../shared/contracts';
import { paths } from '../../../../src/providers/apiPaths';
import type { ActivityEntry } from '../../../../shared/ruleRuns';
import { captureConsoleErrors, loggedHttpStatuses } from '../../../support/consoleErrors';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderApp, signIn, signOut } from '../../../support/renderApp';
import { withAccesses } from '../../../support/users';

const server = setupMswServer();

const rule = {
  id: 5,
  name: 'EP-W: Pause ad CPL > $50',
  folder: { id: 2, name: 'Acme Advisors', meta_ad_account: { account_name: 'Acme Ads' } },
};
const held: ActivityEntry = {
  id: 21,
  created_at: '2026-03-04T10:15:00Z',
  action: 'run_held',
  ad_id: null,
  object_type: null,
  reason: {
    Held: 'would turn off 3 of 4 delivering ads (75% > 50%)',
    Planned: '3 turn-offs, waiting for approval',
    Run: 'Run now',
  },
  undone_at: null,
  exempt: false,
  run_id: 44,
  decision: 'pending',
  rule,
};
const wouldTurnOff: ActivityEntry = {
  ...held,
  id: 22,
  action: 'would_turn_off_ad',
  ad_id: '120001',
  object_type: 'ad',
  reason: { CPL: '$62.10 > $50.00', Leads: '3' },
  decision: null,
  run_id: 43,
};
const heldRun: RuleRunDto = {
  id: 44,
  rule_id: 5,
  slot: '2026-03-04T10:15:00Z',
  started_at: '2026-03-04T10:15:00Z',
  finished_at: '2026-03-04T10:15:03Z',
  trigger: 'run_now',
  outcome: 'held',
  note: 'held',
  error: null,
  counts: { objects: 4, held: 3 },
  decision: 'approved',
  decided_by: 'Grace Hopper',
  decided_at: '2026-03-04T10:20:00Z',
};

let results: ActivityEntry[];
let calls: string[];

beforeEach(() => {
  signOut();
  results = [held, wouldTurnOff];
  calls = [];
  server.use(
    http.get(paths.ruleLog, () => HttpResponse.json({ count: results.length, next: null, previous: null, results })),
    http.get(paths.ruleRun(44), () => HttpResponse.json(heldRun)),
    http.post(paths.ruleRunApprove(44), () => {
      calls.push('approve');
      results = [{ ...held, decision: 'approved' }, wouldTurnOff];
      return HttpResponse.json({
        status: 'done',
        detail: '3 turn-offs',
        turned_off: 3,
        failed: 0,
        held_run: heldRun,
        run: null,
      });
    }),
    http.post(paths.ruleRunDismiss(44), () => {
      calls.push('dismiss');
      return HttpResponse.json({ detail: 'This held run was already approved.' }, { status: 409 });
    }),
  );
});

const rowOf = (cell: HTMLElement) => cell.closest('tr')!;

describe('Activity: held runs and notify-only rules', () => {
  it('shows a held run with its planned summary, Approve and Dismiss, and a link to the run', async () => {
    signIn(withAccesses('view_logs', 'read_rules', 'create_update_rules'));
    renderApp('/activity');
    const row = rowOf(await screen.findByText('Run held for approval'));
    expect(within(row).getByText('would turn off 3 of 4 delivering ads (75% > 50%)')).toBeInTheDocument();
    expect(within(row).getByText('3 turn-offs, waiting for approval')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Approve the held changes of run 44' })).toBeEnabled();
    expect(within(row).getByRole('button', { name: 'Dismiss the held changes of run 44' })).toBeEnabled();
    expect(within(row).getByRole('link', { name: 'Open run 44 in the rule editor' })).toHaveAttribute(
      'href',
      '/edit-rule/5?run=44',
    );
  });

  it('reads a notify-only entry as "Would turn off ad" with a Notify only chip and no Undo', async () => {
    signIn(withAccesses('view_logs', 'read_rules', 'create_update_rules'));
    renderApp('/activity');
    const row = rowOf(await screen.findByText('Would turn off ad'));
    expect(within(row).getByText('Notify only')).toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: /Undo/ })).not.toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'Open run 43 in the rule editor' })).toHaveAttribute(
      'href',
      '/edit-rule/5?run=43',
    );
  });

  it('approves after a confirmation; the row then says who approved', async () => {
    signIn(withAccesses('view_logs', 'read_rules', 'create_update_rules'));
    renderApp('/activity');
    const user = userEvent.setup();
    const row = rowOf(await screen.findByText('Run held for approval'));
    await user.click(within(row).getByRole('button', { name: 'Approve the held changes of run 44' }));
    const dialog = await screen.findByRole('dialog', { name: 'Carry out the held changes?' });
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Approved: 3 turned off')).toBeInTheDocument();
    expect(calls).toEqual(['approve']);
    expect(await screen.findByText('Approved by Grace Hopper')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /held changes of run 44/ })).not.toBeInTheDocument();
  });

  it('says what a budget run’s approval changed besides turn-offs', async () => {
    const change = {
      action: 'raise_budget',
      object_id: 's1',
      object_type: 'adset',
      name: 'Winner ad set',
      campaign_id: 'c1',
      campaign_name: 'EDM Winner',
      before: 50,
      asked: 60,
      allowed: 60,
      daily_delta: 10,
      cut: null,
      conditions: [],
      reason: {},
    };
    server.use(
      http.post(paths.ruleRunApprove(44), () =>
        HttpResponse.json({
          status: 'done',
          detail: 'approved',
          turned_off: 0,
          failed: 0,
          held_run: heldRun,
          run: {
            ...heldRun,
            id: 45,
            outcome: 'done',
            decision: null,
            budget_changes: [change, { ...change, object_id: 's2' }],
          },
        }),
      ),
    );
    signIn(withAccesses('view_logs', 'read_rules', 'create_update_rules'));
    renderApp('/activity');
    const user = userEvent.setup();
    const row = rowOf(await screen.findByText('Run held for approval'));
    await user.click(within(row).getByRole('button', { name: 'Approve the held changes of run 44' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Approved: 0 turned off; budget changes made: 2')).toBeInTheDocument();
  });

  it('shows the server’s 409 when someone else decided first', async () => {
    const consoleErrors = captureConsoleErrors();
    signIn(withAccesses('view_logs', 'read_rules', 'create_update_rules'));
    renderApp('/activity');
    const user = userEvent.setup();
    const row = rowOf(await screen.findByText('Run held for approval'));
    await user.click(within(row).getByRole('button', { name: 'Dismiss the held changes of run 44' }));
    expect(await screen.findByText('This held run was already approved.')).toBeInTheDocument();
    expect(calls).toEqual(['dismiss']);
    expect(loggedHttpStatuses(consoleErrors)).toEqual([409]);
  });

  it('hides Approve and Dismiss from users who may not change rules', async () => {
    signIn(withAccesses('view_logs'));
    renderApp('/activity');
    const row = rowOf(await screen.findByText('Run held for approval'));
    expect(within(row).getByText('Waiting for approval')).toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: /Approve|Dismiss/ })).not.toBeInTheDocument();
    expect(within(row).queryByRole('link', { name: /Open run/ })).not.toBeInTheDocument();
  });

  it('a decided held run reads as approved, says who approved it, and has no buttons', async () => {
    results = [{ ...held, decision: 'approved' }];
    signIn(withAccesses('view_logs', 'read_rules', 'create_update_rules'));
    renderApp('/activity');
    const row = rowOf(await screen.findByText('Held run, approved'));
    await waitFor(() => expect(within(row).getByText('Approved by Grace Hopper')).toBeInTheDocument());
    expect(within(row).getByText('3 turn-offs, approved')).toBeInTheDocument();
    expect(within(row).queryByText(/waiting for approval/)).not.toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: /Approve|Dismiss/ })).not.toBeInTheDocument();
  });

  it('a dismissed held run reads as dismissed, not as waiting', async () => {
    results = [{ ...held, decision: 'dismissed' }];
    signIn(withAccesses('view_logs', 'read_rules', 'create_update_rules'));
    renderApp('/activity');
    const row = rowOf(await screen.findByText('Held run, dismissed'));
    expect(within(row).getByText('3 turn-offs, dismissed: nothing turned off')).toBeInTheDocument();
    expect(within(row).queryByText(/waiting for approval|Run held for approval/)).not.toBeInTheDocument();
  });
});
