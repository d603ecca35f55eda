/**
 * Approvals (/approvals) against msw: each waiting run with its money at stake split, its rule
 * and folder, what it would change and how long it has waited; Approve in place (after the
 * confirmation) takes it off the queue; a run over the person's limit has Approve disabled with
 * the reason beside it; the side panel offers the screen to those who may change rules only.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalDto } from '../../../../shared/approvals';
import { apiUrl, paths } from '../../../../src/providers/apiPaths';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderApp, signIn, signOut } from '../../../support/renderApp';
import { withAccesses } from '../../../support/users';

const server = setupMswServer();

const underLimit: ApprovalDto = {
  id: 44,
  rule_id: 5,
  rule_name: 'EP-W: Pause ad CPL > $50',
  folder_id: 2,
  folder_name: 'Acme Advisors',
  ad_account_name: 'Acme Ads',
  currency: 'USD',
  spend_stopped_per_day: 300,
  spend_estimated: false,
  budget_added_per_day: 0,
  money_at_stake_per_day: 300,
  held_because: 'would turn off 3 of 4 delivering ads (75%, limit 50%)',
  objects: [
    { id: '120001', name: 'Ad one', type: 'ad', change: 'turn_off_ad' },
    { id: '120002', name: 'Ad two', type: 'ad', change: 'turn_off_ad' },
    { id: '120003', name: 'Ad three', type: 'ad', change: 'turn_off_ad' },
    { id: '120004', name: 'Ad four', type: 'ad', change: 'turn_off_ad' },
  ],
  object_count: 4,
  held_at: '2026-03-04T10:15:00Z',
  waited_seconds: 3 * 3600 + 600,
  may_approve: true,
  approve_refusal: null,
};
const REFUSAL =
  'This run releases $1,240/day; your group may approve up to $500/day. Someone allowed more must approve it.';
const overLimit: ApprovalDto = {
  ...underLimit,
  id: 45,
  rule_id: 6,
  rule_name: 'Raise winners',
  folder_name: 'Harbor Wealth',
  spend_stopped_per_day: 0,
  budget_added_per_day: 1240,
  money_at_stake_per_day: 1240,
  objects: [{ id: 's1', name: 'Winner ad set', type: 'adset', change: 'raise_budget' }],
  object_count: 1,
  waited_seconds: 2 * 86_400 + 4 * 3600,
  may_approve: false,
  approve_refusal: REFUSAL,
};

let results: ApprovalDto[];
let calls: string[];

beforeEach(() => {
  signOut();
  results = [overLimit, underLimit];
  calls = [];
  server.use(
    http.get(apiUrl('approvals/'), () =>
      HttpResponse.json({ count: results.length, next: null, previous: null, results }),
    ),
    http.post(paths.ruleRunApprove(44), () => {
      calls.push('approve 44');
      results = [overLimit];
      return HttpResponse.json({
        status: 'done',
        detail: 'approved',
        turned_off: 4,
        failed: 0,
        held_run: { id: 44 },
        run: null,
      });
    }),
  );
});

const rowOf = (cell: HTMLElement) => cell.closest('tr')!;

describe('Approvals', () => {
  it('lists each waiting run with its money, rule, folder, objects and wait', async () => {
    signIn(withAccesses('read_rules', 'create_update_rules'));
    renderApp('/approvals');
    const row = rowOf(await screen.findByText('EP-W: Pause ad CPL > $50'));
    expect(within(row).getByText('$300/day at stake')).toBeInTheDocument();
    expect(within(row).getByText('Stops $300/day of spend')).toBeInTheDocument();
    expect(within(row).getByText('Acme Advisors · Acme Ads')).toBeInTheDocument();
    expect(within(row).getByText('4 objects')).toBeInTheDocument();
    expect(within(row).getByText('turn off ad: Ad one (120001)')).toBeInTheDocument();
    expect(within(row).getByText('… and 1 more')).toBeInTheDocument();
    expect(within(row).getByText('Waiting 3 h 10 min')).toBeInTheDocument();
    expect(
      within(row).getByRole('link', { name: 'Open run 44 of EP-W: Pause ad CPL > $50 in the rule editor' }),
    ).toHaveAttribute('href', '/edit-rule/5?run=44');
    const over = rowOf(screen.getByText('Raise winners'));
    expect(within(over).getByText('Adds $1,240/day of budget')).toBeInTheDocument();
    expect(within(over).getByText('Waiting 2 d 4 h')).toBeInTheDocument();
  });

  it('approves in place after the confirmation; the run leaves the queue', async () => {
    signIn(withAccesses('read_rules', 'create_update_rules'));
    renderApp('/approvals');
    const user = userEvent.setup();
    const row = rowOf(await screen.findByText('EP-W: Pause ad CPL > $50'));
    await user.click(within(row).getByRole('button', { name: 'Approve the held changes of run 44' }));
    const dialog = await screen.findByRole('dialog', { name: 'Carry out the held changes?' });
    expect(dialog).toHaveTextContent('$300/day at stake.');
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Approved: 4 turned off')).toBeInTheDocument();
    expect(calls).toEqual(['approve 44']);
    await waitFor(() => expect(screen.queryByText('EP-W: Pause ad CPL > $50')).not.toBeInTheDocument());
    expect(screen.getByText('Raise winners')).toBeInTheDocument();
  });

  it('keeps Approve disabled over the limit and says why; Dismiss stays', async () => {
    signIn(withAccesses('read_rules', 'create_update_rules'));
    renderApp('/approvals');
    const row = rowOf(await screen.findByText('Raise winners'));
    const approve = within(row).getByRole('button', { name: 'Approve the held changes of run 45' });
    expect(approve).toBeDisabled();
    expect(approve).toHaveAccessibleDescription(REFUSAL);
    expect(within(row).getByText(REFUSAL)).toBeVisible();
    expect(within(row).getByRole('button', { name: 'Dismiss the held changes of run 45' })).toBeEnabled();
  });

  it('says so when nothing is waiting', async () => {
    results = [];
    signIn(withAccesses('read_rules', 'create_update_rules'));
    renderApp('/approvals');
    expect(await screen.findByText('Nothing is waiting for your approval.')).toBeInTheDocument();
  });
});
