import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RuleDto } from '../../../../shared/rules';
import { paths } from '../../../../src/providers/apiPaths';
import { captureConsoleErrors, loggedHttpStatuses } from '../../../support/consoleErrors';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderApp, signIn, signOut } from '../../../support/renderApp';
import { withAccesses } from '../../../support/users';
import { rule, timezones, uncheckedAccount } from '../../fixtures/rules';

const server = setupMswServer();

let loaded: RuleDto;
let patches: Record<string, unknown>[];

beforeEach(() => {
  signOut();
  loaded = rule(5);
  patches = [];
  server.use(
    http.get(paths.rule(5), () => HttpResponse.json(loaded)),
    http.get(paths.ruleTimezones, () => HttpResponse.json(timezones)),
    http.patch(paths.rule(5), async ({ request }) => {
      patches.push((await request.json()) as Record<string, unknown>);
      return HttpResponse.json(loaded);
    }),
    http.get(paths.generalPage, () => HttpResponse.json({ count: 0, next: null, previous: null, results: [] })),
    http.get(paths.log, () => HttpResponse.json({ count: 0, next: null, previous: null, results: [] })),
    http.get(paths.ruleRuns(5), () => HttpResponse.json({ count: 0, next: null, previous: null, results: [] })),
    http.get(paths.ruleExemptions(5), () => HttpResponse.json({ count: 0, next: null, previous: null, results: [] })),
    http.get(paths.ruleConflicts(5), () => HttpResponse.json([])),
    http.get(paths.accountHealth('act_1'), () => HttpResponse.json(uncheckedAccount)),
  );
  signIn(withAccesses('read_rules', 'create_update_rules', 'delete_rules', 'view_logs'));
});

const saveButton = () => screen.getByRole('button', { name: 'Save' });
const cell = (name: string) => screen.getByRole('button', { name });
const field = (name: string) => screen.getByRole('textbox', { name });

async function openEditor() {
  renderApp('/edit-rule/5');
  await screen.findByRole('textbox', { name: 'Rule name' });
  return userEvent.setup();
}

describe('Edit rule', () => {
  it('shows the rule with its filters, task cards, schedule, alert hour and time zone; Save waits for a change', async () => {
    await openEditor();
    expect(field('Rule name')).toHaveValue('New rule');
    expect(screen.getByRole('link', { name: 'Log' })).toHaveAttribute('href', '/log/?rule_id=5');
    expect(screen.getByRole('link', { name: 'Trash' })).toHaveAttribute('href', '/trash/');
    expect(saveButton()).toBeDisabled();
    expect(screen.getByText('EDM')).toBeInTheDocument();
    for (const wording of [
      'Turn off the campaign if leads equal a value',
      'Turn off the ad if CPL is above a value',
      'Turn off the ad if spend exceeds a value and CTR is below a percentage and leads are 0',
    ]) {
      expect(screen.getByText(wording)).toBeInTheDocument();
    }
    expect(cell('Monday 7 AM')).toHaveAttribute('aria-pressed', 'true');
    expect(cell('Monday 8 AM')).toHaveAttribute('aria-pressed', 'false');
    expect(cell('Alert at 7 AM')).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('combobox', { name: 'Time zone' })).toHaveValue('(UTC-05:00) America/New_York');
  });

  it('regenerates the name from the contains list and website CPL, and copies a spend to the three spend cards', async () => {
    const user = await openEditor();
    await user.type(field('Turn off the ad if website CPL is above a value: CPL'), '45');
    expect(field('Rule name')).toHaveValue('Pause ad CPL > $45');
    await user.click(screen.getByRole('combobox', { name: 'Campaign name contains' }));
    await user.click(await screen.findByRole('option', { name: 'EP-W' }));
    await user.click(await screen.findByRole('option', { name: 'TIR-W' }));
    expect(field('Rule name')).toHaveValue('EP-W: Pause ad CPL > $45  - TIR-W');

    await user.type(
      field('Turn off the ad if spend exceeds a value and CPC is above a value and leads are 0: Spend'),
      '30',
    );
    expect(field('Turn off the ad if spend exceeds a value and link clicks are 0: Spend')).toHaveValue('30');
    expect(
      field('Turn off the ad if spend exceeds a value and CTR is below a percentage and leads are 0: Spend'),
    ).toHaveValue('30');
    expect(field('Turn off the ad if spend is above a value and leads are 0: Spend')).toHaveValue('');
  });

  it('toggles cells, whole days and whole-week hours, and Fill default restores 2, 7, 12 and 17 h with the 7 AM alert', async () => {
    const user = await openEditor();
    await user.click(cell('Tuesday 9 AM'));
    expect(cell('Tuesday 9 AM')).toHaveAttribute('aria-pressed', 'true');
    expect(saveButton()).toBeEnabled();
    await user.click(cell('Sunday: every hour'));
    expect(cell('Sunday 11 PM')).toHaveAttribute('aria-pressed', 'true');
    await user.click(cell('3 PM: every day'));
    for (const day of ['Monday', 'Saturday']) expect(cell(`${day} 3 PM`)).toHaveAttribute('aria-pressed', 'true');
    await user.click(cell('3 PM: every day'));
    expect(cell('Monday 3 PM')).toHaveAttribute('aria-pressed', 'false');
    await user.click(cell('Alert at 9 AM'));

    await user.click(screen.getByRole('button', { name: 'Fill default' }));
    expect(cell('Tuesday 9 AM')).toHaveAttribute('aria-pressed', 'false');
    expect(cell('Sunday 11 PM')).toHaveAttribute('aria-pressed', 'false');
    expect(cell('Saturday 5 PM')).toHaveAttribute('aria-pressed', 'true');
    expect(cell('Alert at 9 AM')).toHaveAttribute('aria-pressed', 'false');
    expect(cell('Alert at 7 AM')).toHaveAttribute('aria-pressed', 'true');
  });

  it('saves only what changed, then goes to the general view', async () => {
    const user = await openEditor();
    await user.click(screen.getByRole('switch', { name: 'Turn on: Turn off the ad if CPL is above a value' }));
    await user.type(field('Turn off the ad if CPL is above a value: CPL'), '50');
    await user.click(cell('Monday 3 AM'));
    await user.click(saveButton());
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent(/^\/$/));
    expect(patches).toHaveLength(1);
    const patch = patches[0]!;
    expect(Object.keys(patch).sort()).toEqual(['rule_schedule', 'rule_task']);
    expect(patch.rule_task).toEqual([{ name: 'trigger_cpl', values: { cpl: '50' }, is_active: true }]);
    expect((patch.rule_schedule as { schedule: boolean[][]; timezone: string }).schedule[1]![3]).toBe(true);
    expect((patch.rule_schedule as { timezone: string }).timezone).toBe('America/New_York');
    expect(await screen.findByText('Rule saved')).toBeInTheDocument();
  });

  it('the Active switch saves the changes and switches the rule on in one PATCH, and stays in the editor', async () => {
    const user = await openEditor();
    server.use(
      http.patch(paths.rule(5), async ({ request }) => {
        const patch = (await request.json()) as Record<string, unknown>;
        patches.push(patch);
        return HttpResponse.json({ ...loaded, is_active: true, rule_schedule: loaded.rule_schedule });
      }),
    );
    const active = screen.getByRole('switch', { name: 'Active' });
    expect(active).not.toBeChecked();
    await user.click(cell('Monday 3 AM'));
    await user.click(active);
    expect(await screen.findByText('Rule saved and switched on')).toBeInTheDocument();
    expect(patches).toHaveLength(1);
    expect(patches[0]).toMatchObject({ is_active: true });
    expect(Object.keys(patches[0]!).sort()).toEqual(['is_active', 'rule_schedule']);
    expect(screen.getByRole('switch', { name: 'Active' })).toBeChecked();
    expect(screen.getByTestId('address')).toHaveTextContent('/edit-rule/5');
  }, 30_000);

  it('a refused activation shows the server’s reasons on the fields they concern and leaves the switch off', async () => {
    const consoleErrors = captureConsoleErrors();
    server.use(
      http.patch(paths.rule(5), () =>
        HttpResponse.json(
          {
            rule_task: {
              non_field_errors: ['Turn on at least one task to activate the rule'],
              trigger_cpl: { cpl: ['Enter a CPL above 0'] },
            },
          },
          { status: 400 },
        ),
      ),
    );
    const user = await openEditor();
    await user.click(screen.getByRole('switch', { name: 'Active' }));
    const tasks = screen.getByRole('region', { name: 'Tasks' });
    expect(await within(tasks).findByText('Turn on at least one task to activate the rule')).toBeInTheDocument();
    expect(within(tasks).getByText('Enter a CPL above 0')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Active' })).not.toBeChecked();
    expect(loggedHttpStatuses(consoleErrors)).toEqual([400]);
  }, 30_000);

  it('never overwrites a typed name, nor copies an invalid website CPL into the name', async () => {
    const user = await openEditor();
    const cpl = field('Turn off the ad if website CPL is above a value: CPL');
    await user.type(cpl, 'x');
    expect(field('Rule name')).toHaveValue('New rule');
    await user.clear(cpl);
    await user.type(cpl, '4');
    expect(field('Rule name')).toHaveValue('Pause ad CPL > $4');
    await user.type(field('Rule name'), '!');
    await user.type(cpl, '5');
    expect(field('Rule name')).toHaveValue('Pause ad CPL > $4!');
  }, 30_000);

  it('checks values once touched and keeps Save off while a switched-on task is incomplete', async () => {
    const user = await openEditor();
    await user.click(screen.getByRole('switch', { name: 'Turn on: Turn off the campaign if leads equal a value' }));
    // Nothing typed yet: no error, Save off.
    expect(screen.queryByText('Field is required')).not.toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
    const leads = field('Turn off the campaign if leads equal a value: Leads');
    await user.type(leads, '2.5');
    expect(screen.getByText('Field must be an integer')).toBeInTheDocument();
    await user.clear(leads);
    expect(leads).toHaveAccessibleDescription('Field is required');
    await user.type(leads, '30');
    expect(saveButton()).toBeEnabled();
  });

  it('shows an untouched field’s error only when Save is reached for while it holds Save off', async () => {
    const user = await openEditor();
    await user.click(screen.getByRole('switch', { name: 'Turn on: Turn off the campaign if leads equal a value' }));
    const leads = field('Turn off the campaign if leads equal a value: Leads');
    expect(leads).toHaveAccessibleDescription('');
    await user.hover(saveButton().parentElement!);
    expect(leads).toHaveAccessibleDescription('Field is required');
    expect(
      await screen.findByText(
        'Some fields are empty or not valid: they are marked in red. Save is on once they are put right.',
      ),
    ).toBeInTheDocument();
  });

  it('shows a 400 under the matching fields and in the error list', async () => {
    const consoleErrors = captureConsoleErrors();
    server.use(
      http.patch(paths.rule(5), () =>
        HttpResponse.json(
          {
            rule_task: { trigger_cpl: { cpl: ['Field must be a number'] } },
            rule_filter: { campaign_name_contains: ['Field is required'] },
          },
          { status: 400 },
        ),
      ),
    );
    const user = await openEditor();
    await user.type(field('Turn off the ad if CPL is above a value: CPL'), '7');
    await user.click(saveButton());
    const list = await screen.findByRole('alert');
    expect(within(list).getByText('Tasks: Field must be a number')).toBeInTheDocument();
    expect(within(list).getByText('Campaign names: Field is required')).toBeInTheDocument();
    expect(screen.getAllByText('Field must be a number').length).toBeGreaterThan(0);
    expect(screen.getByTestId('address')).toHaveTextContent('/edit-rule/5');
    expect(loggedHttpStatuses(consoleErrors)).toEqual([400]);
  });

  it('shows the guard rails under their fields while typing: thresholds above 0, whole leads, names of 2–100 characters', async () => {
    const user = await openEditor();
    const cpl = field('Turn off the ad if CPL is above a value: CPL');
    await user.type(cpl, '0');
    expect(cpl).toHaveAccessibleDescription('Must be greater than 0');
    expect(saveButton()).toBeDisabled();
    await user.clear(cpl);
    await user.type(cpl, '40');
    expect(cpl).not.toHaveAccessibleDescription('Must be greater than 0');

    await user.click(screen.getByRole('switch', { name: 'Turn on: Turn off the campaign if leads equal a value' }));
    const leads = field('Turn off the campaign if leads equal a value: Leads');
    await user.type(leads, '0');
    expect(leads).toHaveAccessibleDescription('Must be a whole number of at least 1');

    const contains = screen.getByRole('combobox', { name: 'Campaign name contains' });
    await user.type(contains, 'X{Enter}');
    expect(contains).toHaveAccessibleDescription('Each name must be 2–100 characters');
    expect(cpl).toHaveAccessibleDescription('');
    expect(saveButton()).toBeDisabled();
  });

  it("shows the server's guard-rail 400 under the threshold and the name list it concerns", async () => {
    const consoleErrors = captureConsoleErrors();
    server.use(
      http.patch(paths.rule(5), () =>
        HttpResponse.json(
          {
            rule_task: { trigger_cpl: { cpl: ['Must be greater than 0'] } },
            rule_filter: { campaign_name_contains: ['At most 50 names'] },
          },
          { status: 400 },
        ),
      ),
    );
    const user = await openEditor();
    const cpl = field('Turn off the ad if CPL is above a value: CPL');
    await user.type(cpl, '7');
    await user.click(saveButton());
    await waitFor(() => expect(cpl).toHaveAccessibleDescription('Must be greater than 0'));
    expect(screen.getByRole('combobox', { name: 'Campaign name contains' })).toHaveAccessibleDescription(
      'At most 50 names',
    );
    expect(field('Turn off the ad if website CPL is above a value: CPL')).toHaveAccessibleDescription('');
    expect(screen.getByTestId('address')).toHaveTextContent('/edit-rule/5');
    expect(loggedHttpStatuses(consoleErrors)).toEqual([400]);
  });

  it("asks 'Leave the page?' when leaving with unsaved changes: Cancel stays, Leave goes", async () => {
    const user = await openEditor();
    await user.clear(field('Rule name'));
    await user.type(field('Rule name'), 'Renamed');
    await user.click(screen.getByRole('button', { name: 'Back to the folders' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave the page?' });
    expect(within(dialog).getByText("Changes you've made may not be saved.")).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByTestId('address')).toHaveTextContent('/edit-rule/5');
    expect(field('Rule name')).toHaveValue('Renamed');

    await user.click(screen.getByRole('link', { name: 'Log' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Leave the page?' })).getByRole('button', { name: 'Leave' }),
    );
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent('/log/?rule_id=5'));
  });

  it('warns before the tab closes only while changes are unsaved', async () => {
    const user = await openEditor();
    const unload = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(unload()).toBe(false);
    await user.click(cell('Friday 1 AM'));
    expect(unload()).toBe(true);
  });

  it('leaves without asking when nothing changed', async () => {
    const user = await openEditor();
    await user.click(screen.getByRole('button', { name: 'Back to the folders' }));
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent(/^\/$/));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('counts a judging change as unsaved: turning revive on and pressing back asks first', async () => {
    const user = await openEditor();
    await user.click(screen.getByRole('switch', { name: /^Revive: turn back on/ }));
    expect(saveButton()).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Back to the folders' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave the page?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByTestId('address')).toHaveTextContent('/edit-rule/5');
    expect(screen.getByRole('switch', { name: /^Revive: turn back on/ })).toBeChecked();
  });

  it('one Save sends the judging settings with the rest of the rule', async () => {
    const user = await openEditor();
    expect(screen.queryByRole('button', { name: 'Save judging settings' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: 'Turn on: Turn off the ad if CPL is above a value' }));
    await user.type(field('Turn off the ad if CPL is above a value: CPL'), '50');
    await user.click(screen.getByRole('switch', { name: /^Revive: turn back on/ }));
    await user.clear(field('Hours delivering'));
    await user.type(field('Hours delivering'), '12');
    await user.click(saveButton());
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent(/^\/$/));
    expect(patches).toHaveLength(1);
    expect(patches[0]).toEqual({
      rule_task: [{ name: 'trigger_cpl', values: { cpl: '50' }, is_active: true }],
      judging: expect.objectContaining({ maturity_hours: 12, revive_hours: 72, lag_hours: null }),
    });
  });

  it('shows no error before anything is typed: the lead-lag allowance switched on waits for its hours', async () => {
    const user = await openEditor();
    await user.click(screen.getByRole('switch', { name: /^Lead-lag allowance/ }));
    const allowance = field('Allowance');
    expect(screen.queryByText('Must be a number')).not.toBeInTheDocument();
    expect(screen.queryByText('Field is required')).not.toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
    await user.click(allowance);
    await user.tab();
    expect(allowance).toHaveAccessibleDescription('Field is required');
    await user.type(allowance, 'x');
    expect(allowance).toHaveAccessibleDescription('Must be a number');
    await user.clear(allowance);
    await user.type(allowance, '24');
    expect(allowance).toHaveAccessibleDescription('hours');
    expect(saveButton()).toBeEnabled();
  });

  it("shows 'Rule not found' for a missing rule, a trashed one and an address without a number", async () => {
    const consoleErrors = captureConsoleErrors();
    server.use(http.get(paths.rule(6), () => HttpResponse.json({ detail: 'Not found.' }, { status: 404 })));
    const first = renderApp('/edit-rule/6');
    expect(await screen.findByText('Rule not found')).toBeInTheDocument();
    first.unmount();
    const second = renderApp('/edit-rule/abc');
    expect(await screen.findByText('Rule not found')).toBeInTheDocument();
    second.unmount();
    loaded = rule(5, { is_deleted: true });
    renderApp('/edit-rule/5');
    expect(await screen.findByText('Rule not found')).toBeInTheDocument();
    expect(loggedHttpStatuses(consoleErrors)).toEqual([404]);
  });
});
