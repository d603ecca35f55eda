/**
 * The rule editor's Conditions card and Action section: building groups of conditions (add,
 * remove, nest three deep), show-up metrics kept on Lifetime, the action's levels per kind with the
 * folder's budget limits under a budget action, the JSON Save sends, and a server refusal shown at
 * the condition's field.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RuleDto } from '../../../../../shared/rules';
import { paths } from '../../../../../src/providers/apiPaths';
import { captureConsoleErrors, loggedHttpStatuses } from '../../../../support/consoleErrors';
import { http, HttpResponse, setupMswServer } from '../../../../support/msw';
import { renderApp, signIn, signOut } from '../../../../support/renderApp';
import { withAccesses } from '../../../../support/users';
import { rule, timezones, uncheckedAccount } from '../../../fixtures/rules';

const server = setupMswServer();

const LIMITS = {
  growth_24h_pct: 30,
  growth_7d_pct: 80,
  significant_pct: 15,
  settle_hours: 48,
  daily_increase_limit: 2500,
};

let loaded: RuleDto;
let patches: Record<string, unknown>[];
let refusal: Record<string, string[]> | null;

function ruleWith(extra: Record<string, unknown> = {}): RuleDto {
  const base = rule(5);
  return {
    ...base,
    folder: { ...base.folder, budget_limits: LIMITS },
    conditions: null,
    action: null,
    ...extra,
  } as RuleDto;
}

beforeEach(() => {
  signOut();
  loaded = ruleWith();
  patches = [];
  refusal = null;
  server.use(
    http.get(paths.rule(5), () => HttpResponse.json(loaded)),
    http.get(paths.ruleTimezones, () => HttpResponse.json(timezones)),
    http.patch(paths.rule(5), async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      patches.push(body);
      if (refusal) return HttpResponse.json(refusal, { status: 400 });
      return HttpResponse.json({ ...loaded, ...body });
    }),
    http.get(paths.generalPage, () => HttpResponse.json({ count: 0, next: null, previous: null, results: [] })),
    http.get(paths.log, () => HttpResponse.json({ count: 0, next: null, previous: null, results: [] })),
    http.get(paths.ruleRuns(5), () => HttpResponse.json({ count: 0, next: null, previous: null, results: [] })),
    http.get(paths.ruleExemptions(5), () => HttpResponse.json({ count: 0, next: null, previous: null, results: [] })),
    http.get(paths.ruleConflicts(5), () => HttpResponse.json([])),
    http.get(paths.accountHealth('act_1'), () => HttpResponse.json(uncheckedAccount)),
  );
  signIn(withAccesses('read_rules', 'create_update_rules'));
});

type User = ReturnType<typeof userEvent.setup>;

async function openEditor() {
  renderApp('/edit-rule/5');
  await screen.findByRole('region', { name: 'Conditions' });
  return userEvent.setup();
}

const card = () => screen.getByRole('region', { name: 'Conditions' });
const actionCard = () => screen.getByRole('region', { name: 'Action' });
const condition = (n: number) => within(card()).getByRole('group', { name: `Condition ${n}` });

async function choose(user: User, field: HTMLElement, option: string) {
  await user.click(field);
  await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: option }));
}

const select = (scope: HTMLElement, name: string) => within(scope).getByRole('combobox', { name });

describe('the Conditions card', () => {
  // Many fields to fill through the real app: longer than the default five seconds on a shared machine.
  it('builds groups of conditions, keeps show-up metrics on Lifetime and saves the JSON', {
    timeout: 60_000,
  }, async () => {
    const user = await openEditor();
    expect(within(card()).getByText('Off: the rule only has its tasks, which turn off.')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Action' })).not.toBeInTheDocument();

    await user.click(within(card()).getByRole('switch', { name: 'Use conditions' }));
    // Condition 1: CPL over the last 7 days above $30.
    expect(select(condition(1), 'Metric')).toHaveTextContent('CPL');
    expect(select(condition(1), 'Window')).toHaveTextContent('Last 7 days');
    expect(within(condition(1)).getByText('$')).toBeInTheDocument();
    // Nothing typed yet: no error shows; a value typed and cleared is required.
    expect(within(condition(1)).queryByText('Field is required')).not.toBeInTheDocument();
    const value = within(condition(1)).getByRole('textbox', { name: 'Condition 1: Value' });
    await user.type(value, '3');
    await user.clear(value);
    expect(within(condition(1)).getByText('Field is required')).toBeInTheDocument();
    await user.type(value, '30');
    expect(within(condition(1)).queryByText('Field is required')).not.toBeInTheDocument();

    // Condition 2: Attendees, whose window is the lifetime only.
    await user.click(within(card()).getAllByRole('button', { name: 'Add condition' })[0]!);
    await choose(user, select(condition(2), 'Metric'), 'Attendees');
    expect(select(condition(2), 'Window')).toHaveTextContent('Lifetime');
    expect(select(condition(2), 'Window')).toHaveAttribute('aria-disabled', 'true');
    expect(within(condition(2)).getByText('Known over the lifetime only')).toBeInTheDocument();
    await choose(user, select(condition(2), 'Comparison'), '≥');
    await user.type(within(condition(2)).getByRole('textbox', { name: 'Condition 2: Value' }), '5');

    // A group of Any of: condition 3 against 1.5 × its campaign's CPL over the last 30 days.
    await user.click(within(card()).getAllByRole('button', { name: 'Add group' })[0]!);
    const inner = within(card()).getByRole('group', { name: 'Group: Any of' });
    expect(within(inner).getByRole('group', { name: 'Condition 3' })).toBeInTheDocument();
    await choose(user, select(condition(3), 'Against'), 'another metric');
    const factor = within(condition(3)).getByRole('textbox', { name: 'Condition 3: Factor' });
    await user.clear(factor);
    await user.type(factor, '1.5');
    await choose(user, select(condition(3), 'Over'), 'Last N days');
    const days = within(condition(3)).getByRole('textbox', { name: 'Over: Days' });
    await user.clear(days);
    await user.type(days, '30');

    // Nesting stops at three deep: the third level has no Add group.
    await user.click(within(inner).getAllByRole('button', { name: 'Add group' })[0]!);
    const third = within(inner).getByRole('group', { name: 'Group: All of' });
    expect(within(third).queryByRole('button', { name: 'Add group' })).not.toBeInTheDocument();
    expect(within(third).getByRole('group', { name: 'Condition 4' })).toBeInTheDocument();
    // Removing its one condition removes the group.
    await user.click(within(third).getByRole('button', { name: 'Remove condition 4' }));
    expect(within(inner).queryByRole('group', { name: 'Group: All of' })).not.toBeInTheDocument();
    expect(within(card()).queryByRole('group', { name: 'Condition 4' })).not.toBeInTheDocument();

    // The action: raise the ad sets' budgets by 20%, at most $500 a day.
    await choose(user, select(actionCard(), 'Do'), 'Raise budget');
    expect(select(actionCard(), 'On')).toHaveTextContent('ad sets');
    await user.type(within(actionCard()).getByRole('textbox', { name: 'By' }), '20');
    await user.type(within(actionCard()).getByRole('textbox', { name: 'Ceiling (optional)' }), '500');

    const save = screen.getByRole('button', { name: 'Save' });
    await waitFor(() => expect(save).toBeEnabled());
    await user.click(save);
    await waitFor(() => expect(patches).toHaveLength(1));
    expect(patches[0]).toEqual({
      conditions: {
        match: 'all',
        conditions: [
          { metric: 'cpl', window: 'last_7_days', op: '>', value: 30 },
          { metric: 'attendees', window: 'lifetime', op: '>=', value: 5 },
          {
            match: 'any',
            conditions: [
              {
                metric: 'cpl',
                window: 'last_7_days',
                op: '>',
                compare_to: { metric: 'cpl', window: 'last_30_days', of: 'campaign', factor: 1.5 },
              },
            ],
          },
        ],
      },
      action: { kind: 'raise_budget', level: 'adset', change: { percent: 20 }, floor: null, ceiling: 500 },
    });
  });

  it('sends null for both when the card is turned off, and loads a stored rule’s conditions', async () => {
    loaded = ruleWith({
      conditions: { match: 'any', conditions: [{ metric: 'ctr', window: 'today', op: '<', value: 0.8 }] },
      action: { kind: 'turn_off', level: 'campaign' },
    });
    const user = await openEditor();
    expect(within(card()).getByRole('switch', { name: 'Use conditions' })).toBeChecked();
    expect(select(condition(1), 'Metric')).toHaveTextContent('CTR');
    expect(within(condition(1)).getByText('%')).toBeInTheDocument();
    expect(within(condition(1)).getByRole('textbox', { name: 'Condition 1: Value' })).toHaveValue('0.8');
    expect(select(actionCard(), 'On')).toHaveTextContent('campaigns');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();

    await user.click(within(card()).getByRole('switch', { name: 'Use conditions' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(patches).toEqual([{ conditions: null, action: null }]));
  });
});

describe('the Action section', () => {
  it('offers each kind its levels and shows the folder’s budget limits under a budget action', async () => {
    const user = await openEditor();
    await user.click(within(card()).getByRole('switch', { name: 'Use conditions' }));

    await user.click(select(actionCard(), 'On'));
    let options = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['ads', 'campaigns']);
    await user.keyboard('{Escape}');
    expect(within(actionCard()).queryByTestId('budget-limits')).not.toBeInTheDocument();

    await choose(user, select(actionCard(), 'Do'), 'Lower budget');
    await user.click(select(actionCard(), 'On'));
    options = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['ad sets', 'campaigns']);
    await user.keyboard('{Escape}');

    expect(within(actionCard()).getByTestId('budget-limits')).toHaveTextContent(
      'Whatever the rules say: at most +30% in 24 h, +80% in 7 days; no second change of 15% or more while learning or within 48 h; never a 5th change in an hour (Meta’s limit); a run adding more than $2,500/day waits for approval — change these in the folder’s settings',
    );

    await choose(user, select(actionCard(), 'Change'), 'to an amount');
    expect(within(actionCard()).getByRole('textbox', { name: 'To (a day)' })).toBeInTheDocument();
    expect(within(actionCard()).queryByRole('textbox', { name: 'By' })).not.toBeInTheDocument();
  });

  it('says so when the folder holds no run for approval', async () => {
    loaded = ruleWith({
      folder: { ...rule(5).folder, budget_limits: { ...LIMITS, daily_increase_limit: null } },
      conditions: { match: 'all', conditions: [{ metric: 'cpl', window: 'yesterday', op: '<', value: 20 }] },
      action: { kind: 'raise_budget', level: 'campaign', change: { to_amount: 300 }, floor: null, ceiling: null },
    });
    await openEditor();
    expect(within(actionCard()).getByRole('textbox', { name: 'To (a day)' })).toHaveValue('300');
    expect(within(actionCard()).getByTestId('budget-limits')).toHaveTextContent(
      'no run waits for approval whatever it adds',
    );
  });
});

describe('a refusal of the conditions', () => {
  it('shows the server’s message at the condition’s field', async () => {
    refusal = {
      'conditions.conditions.1.compare_to.window': [
        'Show-up metrics are known over the lifetime only: choose the lifetime window',
      ],
      'action.ceiling': ['Must be more than 0 and at most 1,000,000'],
    };
    loaded = ruleWith({
      conditions: {
        match: 'all',
        conditions: [
          { metric: 'spend', window: 'today', op: '>', value: 40 },
          {
            metric: 'cpl',
            window: 'last_3_days',
            op: '>',
            compare_to: { metric: 'cpl', window: 'last_14_days', of: 'account', factor: 2 },
          },
        ],
      },
      action: { kind: 'lower_budget', level: 'adset', change: { percent: 10 }, floor: 50, ceiling: null },
    });
    const consoleErrors = captureConsoleErrors();
    const user = await openEditor();
    await user.clear(within(condition(1)).getByRole('textbox', { name: 'Condition 1: Value' }));
    await user.type(within(condition(1)).getByRole('textbox', { name: 'Condition 1: Value' }), '45');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const window = select(condition(2), 'Over').closest('.MuiFormControl-root') as HTMLElement;
    expect(
      await within(window).findByText('Show-up metrics are known over the lifetime only: choose the lifetime window'),
    ).toBeInTheDocument();
    const ceiling = within(actionCard()).getByRole('textbox', { name: 'Ceiling (optional)' });
    expect(within(ceiling.closest('.MuiFormControl-root') as HTMLElement).getByText(/at most 1,000,000/)).toBeVisible();
    expect(patches.at(-1)).toMatchObject({ conditions: { conditions: [{ value: 45 }, {}] } });
    expect(loggedHttpStatuses(consoleErrors)).toEqual([400]);
  });
});
