import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
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
const turnOff: ActivityEntry = {
  id: 11,
  created_at: '2025-03-04T10:15:00Z',
  action: 'turn_off_ad',
  ad_id: '120001',
  object_type: 'ad',
  reason: { CPL: '$62.10 > $50.00', Leads: '3', Campaign: 'EDM EP-W 2025-03-05 6PM', Ad: 'Adviser video, March' },
  undone_at: null,
  exempt: false,
  rule,
};
const failure: ActivityEntry = {
  ...turnOff,
  id: 12,
  action: 'error',
  ad_id: null,
  reason: { Error: '(#17) User request limit reached' },
};

let queries: URLSearchParams[];
let results: ActivityEntry[];

beforeEach(() => {
  signOut();
  queries = [];
  results = [turnOff, failure];
  server.use(
    http.get(paths.ruleLog, ({ request }) => {
      queries.push(new URL(request.url).searchParams);
      return HttpResponse.json({ count: results.length, next: null, previous: null, results });
    }),
  );
});

const lastQuery = () => queries[queries.length - 1]!;
const rowOf = (text: string) => screen.getByText(text).closest('tr')!;

describe('Activity list', () => {
  it('shows Date, Client / Ad account, Action with spaces, Rule, Ad ID and Info, newest first, 10 a page', async () => {
    signIn(withAccesses('view_logs'));
    renderApp('/activity');
    expect(await screen.findByText('turn off ad')).toBeInTheDocument();
    for (const column of ['Date', 'Client / Ad account', 'Action', 'Rule', 'Ad ID', 'Info']) {
      expect(
        screen.getByRole('columnheader', { name: new RegExp(`^${column.replace('/', '\\/')}`) }),
      ).toBeInTheDocument();
    }
    // Info is not sortable; the others are.
    expect(within(screen.getByRole('columnheader', { name: 'Info' })).queryByRole('button')).toBeNull();
    const row = within(rowOf('turn off ad'));
    expect(row.getByText('Acme Advisors')).toBeInTheDocument();
    expect(row.getByText('Acme Ads')).toBeInTheDocument();
    expect(row.getByText('EP-W: Pause ad CPL > $50')).toBeInTheDocument();
    // The Ad ID column: the id, with the ad's name beside it.
    const adCell = row.getByText('120001').parentElement!;
    expect(adCell).toHaveTextContent('120001Adviser video, March');
    expect(row.getByText('CPL:')).toBeInTheDocument();
    expect(row.getByText('$62.10 > $50.00')).toBeInTheDocument();
    expect(row.getByText('Leads:')).toBeInTheDocument();
    expect(within(rowOf('error')).getByText('(#17) User request limit reached')).toBeInTheDocument();
    expect(Object.fromEntries(lastQuery())).toEqual({ limit: '10', offset: '0', ordering: '-created_at' });
  });

  it('turns ?rule_id=, ?folder_id= and ?ad_id= into chips and filters; removing a chip edits the address', async () => {
    signIn(withAccesses('view_logs'));
    renderApp('/activity?rule_id=5&folder_id=2&ad_id=120001');
    const adChip = await screen.findByRole('button', { name: 'Ad id: 120001' });
    expect(screen.getByRole('button', { name: 'Rule id: 5' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Folder id 2' })).toBeInTheDocument();
    await waitFor(() => expect(lastQuery().get('ad_id_in')).toBe('120001'));
    expect(lastQuery().get('rule_id_in')).toBe('5');
    expect(lastQuery().get('folder_id_in')).toBe('2');

    await userEvent.setup().click(within(adChip).getByTestId('CancelIcon'));
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent(/^\/activity\?rule_id=5&folder_id=2$/));
    await waitFor(() => expect(lastQuery().get('ad_id_in')).toBeNull());
  });

  it('sorts Client / Ad account as client_account, together with the date', async () => {
    signIn(withAccesses('view_logs'));
    renderApp('/activity');
    await screen.findByText('turn off ad');
    await userEvent.setup().click(screen.getByRole('button', { name: /Client \/ Ad account/ }));
    await waitFor(() => expect(lastQuery().get('ordering')).toBe('-created_at,client_account'));
  });

  it('offers Undo on a turn-off only to users who may change rules', async () => {
    signIn(withAccesses('view_logs'));
    const { unmount } = renderApp('/activity');
    await screen.findByText('turn off ad');
    expect(screen.queryByRole('button', { name: 'Undo: turn “Adviser video, March” back on' })).toBeNull();
    unmount();

    signIn(withAccesses('view_logs', 'create_update_rules'));
    renderApp('/activity');
    expect(
      await screen.findByRole('button', { name: 'Undo: turn “Adviser video, March” back on' }),
    ).toBeInTheDocument();
    expect(within(rowOf('error')).queryByRole('button')).toBeNull();
  });

  it('undoes after a confirmation, says so and reloads the list', async () => {
    const undone: number[] = [];
    server.use(
      http.post(paths.ruleLogUndo(11), () => {
        undone.push(11);
        results = [
          { ...turnOff, id: 13, action: 'turn_on_ad', exempt: true, reason: { Undo: 'of entry #11 by Ada Lovelace' } },
          { ...turnOff, undone_at: '2025-03-04T11:00:00Z', exempt: true },
        ];
        return HttpResponse.json(results[0]);
      }),
    );
    signIn(withAccesses('view_logs', 'create_update_rules'));
    renderApp('/activity');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Undo: turn “Adviser video, March” back on' }));
    // Named, not by its id alone: the ad, its rule and the rule's folder.
    const dialog = await screen.findByRole('dialog', { name: 'Turn “Adviser video, March” back on?' });
    expect(dialog).toHaveTextContent('The ad “Adviser video, March” (120001) is turned back on in the ad platform');
    expect(dialog).toHaveTextContent('rule "EP-W: Pause ad CPL > $50" of Acme Advisors leaves it alone from now on');
    expect(undone).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Turn back on' }));
    expect(
      await screen.findByText('Turned back on. The rule leaves it alone until the exemption is removed.'),
    ).toBeInTheDocument();
    expect(undone).toEqual([11]);
    expect(await screen.findByText('turn on ad')).toBeInTheDocument();
    expect(within(rowOf('turn off ad')).getByText('undone')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Undo: turn “Adviser video, March” back on' })).toBeNull();
    expect(
      screen.getByRole('button', { name: 'Remove the exemption of 120001 from rule "EP-W: Pause ad CPL > $50"' }),
    ).toBeInTheDocument();
  });

  it('shows the server’s refusal of an undo', async () => {
    const consoleErrors = captureConsoleErrors();
    server.use(
      http.post(paths.ruleLogUndo(11), () =>
        HttpResponse.json({ detail: 'This action was already undone.' }, { status: 400 }),
      ),
    );
    signIn(withAccesses('view_logs', 'create_update_rules'));
    renderApp('/activity');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Undo: turn “Adviser video, March” back on' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Turn back on' }));
    expect(await screen.findByText(/This action was already undone\./)).toBeInTheDocument();
    expect(loggedHttpStatuses(consoleErrors)).toEqual([400]);
  });
});
