/**
 * The judging card's attribution window: a rule stored on a window Meta removed says why it cannot
 * judge until another is chosen; a chosen window is saved with the rule (its one Save); the server's
 * refusal shows under the field.
 */
import { screen, within } from '@testing-library/react';
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
const REMOVED =
  'Meta no longer reports 7-day view attribution (since 12 January 2026): choose 1-day click, 7-day click, 1-day view or Meta’s default';

let loaded: RuleDto;
let patches: Record<string, unknown>[];
let refusal: Record<string, string[]> | null;

beforeEach(() => {
  signOut();
  loaded = rule(5);
  loaded.judging = { ...loaded.judging, attribution_window: '7d_view' };
  patches = [];
  refusal = null;
  server.use(
    http.get(paths.rule(5), () => HttpResponse.json(loaded)),
    http.get(paths.ruleTimezones, () => HttpResponse.json(timezones)),
    http.patch(paths.rule(5), async ({ request }) => {
      const body = (await request.json()) as { judging: RuleDto['judging'] };
      patches.push(body);
      if (refusal) return HttpResponse.json(refusal, { status: 400 });
      return HttpResponse.json({ ...loaded, judging: { ...loaded.judging, ...body.judging, carried_over: false } });
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

const windowField = () => screen.getByRole('combobox', { name: 'Count leads in' });
const save = () => screen.getByRole('button', { name: 'Save' });

async function openEditor() {
  renderApp('/edit-rule/5');
  await screen.findByRole('combobox', { name: 'Count leads in' });
  return userEvent.setup();
}

async function choose(user: ReturnType<typeof userEvent.setup>, option: string) {
  await user.click(windowField());
  await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: option }));
}

describe('the attribution window of a rule', () => {
  it('says why a rule stored on a removed window cannot judge, until another window is chosen and saved', async () => {
    const user = await openEditor();
    expect(windowField()).toHaveTextContent('7-day view (no longer reported)');
    expect(screen.getByText(REMOVED)).toBeInTheDocument();
    expect(save()).toBeDisabled();

    await choose(user, '1-day click');
    expect(screen.queryByText(REMOVED)).not.toBeInTheDocument();
    await user.click(save());
    await screen.findByText('Rule saved');
    expect(patches.at(-1)).toEqual({ judging: expect.objectContaining({ attribution_window: '1d_click' }) });
  });

  it('shows the server’s refusal of a window under the field', async () => {
    refusal = { 'judging.attribution_window': [REMOVED] };
    const consoleErrors = captureConsoleErrors();
    const user = await openEditor();
    await choose(user, '1-day view');
    await user.click(save());
    const field = windowField().closest('.MuiFormControl-root') as HTMLElement;
    expect(await within(field).findByText(REMOVED)).toBeInTheDocument();
    expect(patches.at(-1)).toMatchObject({ judging: { attribution_window: '1d_view' } });
    expect(loggedHttpStatuses(consoleErrors)).toEqual([400]);
  });
});
