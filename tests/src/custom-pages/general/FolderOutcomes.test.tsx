/**
 * An open folder's lead outcome figures on the general view, against msw: registrations, attendees,
 * show-up and cost per attendee with each CRM stage reached and what it cost; N/A before any webinar
 * date happened; read only when the folder opens, and not at all without the campaigns permission.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FolderOutcomes } from '../../../../shared/folderOutcomes';
import { paths } from '../../../../src/providers/apiPaths';
import { captureConsoleErrors, loggedHttpStatuses } from '../../../support/consoleErrors';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderApp, signIn, signOut } from '../../../support/renderApp';
import { withAccesses } from '../../../support/users';
import { folder, pageOf } from '../../fixtures/rules';

const server = setupMswServer();

const HARBOR: FolderOutcomes = {
  registrations: 1240,
  attendees: 310,
  show_up_rate: 0.25,
  cost_per_attendee: 137.5,
  currency: 'USD',
  stages: [
    { stage: 'qualified', reached: 42, judged: 300, cost: 812.4 },
    { stage: 'booked', reached: 0, judged: 300, cost: null },
  ],
};
const NOT_YET: FolderOutcomes = {
  registrations: null,
  attendees: null,
  show_up_rate: null,
  cost_per_attendee: null,
  currency: 'USD',
  stages: [],
};

let asked: string[];

beforeEach(() => {
  signOut();
  asked = [];
  const folders = [folder(1, { name: 'Harbor Wealth' }), folder(2, { name: 'Pacific Coast' })];
  server.use(
    http.get(paths.generalPage, ({ request }) => HttpResponse.json(pageOf(folders, new URL(request.url)))),
    http.get(paths.folderOutcomes(':id'), ({ params }) => {
      asked.push(String(params.id));
      return HttpResponse.json(params.id === '1' ? HARBOR : NOT_YET);
    }),
  );
});

const readers = withAccesses('read_rules', 'add_edit_campaigns');

/** The figures of the folder's row as term → value. */
async function figuresOf(name: string) {
  const list = await screen.findByLabelText(`Lead outcomes of ${name}`);
  const terms = within(list)
    .getAllByRole('term')
    .map((t) => t.textContent);
  const values = within(list)
    .getAllByRole('definition')
    .map((d) => d.textContent);
  return Object.fromEntries(terms.map((term, i) => [term, values[i]]));
}

async function openFolder(name: string) {
  const row = await screen.findByRole('listitem', { name });
  await userEvent.setup().click(within(row).getByRole('button', { name: `Show the rules of ${name}` }));
}

describe('General view: a folder’s lead outcomes', () => {
  it('shows the folder’s webinar figures and each CRM stage with its cost once the folder opens', async () => {
    signIn(readers);
    renderApp('/');
    await screen.findByRole('listitem', { name: 'Harbor Wealth' });
    expect(asked).toEqual([]);
    await openFolder('Harbor Wealth');
    expect(await figuresOf('Harbor Wealth')).toEqual({
      Registrations: '1,240',
      Attendees: '310',
      'Show-up': '25.00%',
      'Cost / attendee': '$137.50',
      Qualified: '42 ($812.40 each)',
      Booked: '0',
    });
    expect(asked).toEqual(['1']);
  });

  it('shows N/A before any of the folder’s webinar dates has happened', async () => {
    signIn(readers);
    renderApp('/');
    await openFolder('Pacific Coast');
    expect(await figuresOf('Pacific Coast')).toEqual({
      Registrations: 'N/A',
      Attendees: 'N/A',
      'Show-up': 'N/A',
      'Cost / attendee': 'N/A',
    });
  });

  it('says so when the figures cannot be read', async () => {
    server.use(http.get(paths.folderOutcomes(':id'), () => HttpResponse.json({ detail: 'boom' }, { status: 500 })));
    signIn(readers);
    renderApp('/');
    const consoleErrors = captureConsoleErrors();
    await openFolder('Harbor Wealth');
    expect(await screen.findByRole('alert')).toHaveTextContent('The lead outcomes could not be read.');
    expect(loggedHttpStatuses(consoleErrors).every((status) => status === 500)).toBe(true);
  });

  it('asks nothing and shows no figures to those who may not read the campaigns', async () => {
    signIn(withAccesses('read_rules'));
    renderApp('/');
    await openFolder('Harbor Wealth');
    expect(await screen.findByTestId('rule-100')).toBeInTheDocument();
    expect(screen.queryByLabelText('Lead outcomes of Harbor Wealth')).toBeNull();
    expect(asked).toEqual([]);
  });
});
