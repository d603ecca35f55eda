/**
 * The Update Folder dialog's "Lead outcomes (CRM)" section: counts by stage, the CSV upload with
 * each refused row's error, a file over the limit refused before it is sent, and the key shown once.
 */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { LeadOutcomesSection } from '../../../../src/custom-pages/general/LeadOutcomesSection';
import { CRM_UPLOAD_MAX_BYTES, type LeadOutcomeSummary } from '../../../../shared/leadOutcomes';
import { paths } from '../../../../src/providers/apiPaths';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderWithAdmin, signIn, signOut } from '../../../support/renderApp';

const server = setupMswServer();
const FOLDER = 7;
const KEY = 'aro_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';

let summary: LeadOutcomeSummary;
const sent: { type: string | null; body: string }[] = [];

beforeEach(() => {
  signIn();
  sent.length = 0;
  summary = {
    stages: [
      { stage: 'qualified', leads: 12 },
      { stage: 'booked', leads: 5 },
      { stage: 'attended', leads: 3 },
      { stage: 'won', leads: 1 },
    ],
    last_recorded_at: '2025-03-04T10:00:00Z',
    key: null,
  };
  server.use(
    http.get(paths.folderLeadOutcomes(FOLDER), () => HttpResponse.json(summary)),
    http.post(paths.folderLeadOutcomesUpload(FOLDER), async ({ request }) => {
      sent.push({ type: request.headers.get('content-type'), body: await request.text() });
      return HttpResponse.json({
        added: 2,
        already_known: 1,
        refused: 2,
        errors: {
          'rows.5.stage': ['Stage must be one of: qualified, booked, attended, won'],
          'rows.6.time': ['Time is in the future'],
        },
      });
    }),
  );
});
afterEach(() => signOut());

const csvFile = (text: string) => new File([text], 'outcomes.csv', { type: 'text/csv' });

it('shows the folder’s leads by stage', async () => {
  renderWithAdmin(<LeadOutcomesSection folderId={FOLDER} />);
  expect(await screen.findByText('Qualified: 12')).toBeInTheDocument();
  expect(screen.getByText('Won: 1')).toBeInTheDocument();
  expect(screen.getByText('No key: the CRM cannot post outcomes to this folder.')).toBeInTheDocument();
});

it('uploads the chosen file as text/csv and lists each refused row’s error', async () => {
  renderWithAdmin(<LeadOutcomesSection folderId={FOLDER} />);
  await screen.findByText('Qualified: 12');
  const csv = 'email,stage,time\nann@example.com,qualified,2025-01-02\n';
  await userEvent.upload(screen.getByLabelText('Upload CSV'), csvFile(csv));

  expect(await screen.findByText('Added 2, already known 1, refused 2.')).toBeInTheDocument();
  expect(screen.getByText('Row 5, stage: Stage must be one of: qualified, booked, attended, won')).toBeInTheDocument();
  expect(screen.getByText('Row 6, time: Time is in the future')).toBeInTheDocument();
  expect(sent).toEqual([{ type: 'text/csv', body: csv }]);
});

it('refuses a file over the limit without sending it', async () => {
  renderWithAdmin(<LeadOutcomesSection folderId={FOLDER} />);
  await screen.findByText('Qualified: 12');
  const big = csvFile('email,stage,time\n');
  Object.defineProperty(big, 'size', { value: CRM_UPLOAD_MAX_BYTES + 1 });
  await userEvent.upload(screen.getByLabelText('Upload CSV'), big);

  expect(await screen.findByText('The file is larger than 10 MB. Split it into smaller files.')).toBeInTheDocument();
  expect(sent).toEqual([]);
});

it('shows the server’s refusal of a file in words', async () => {
  server.use(
    http.post(paths.folderLeadOutcomesUpload(FOLDER), () =>
      HttpResponse.json(
        {
          file: [
            'The first row must name the columns email (or email_sha256, or lead_id), stage and time; missing: time.',
          ],
        },
        { status: 400 },
      ),
    ),
  );
  renderWithAdmin(<LeadOutcomesSection folderId={FOLDER} />);
  await screen.findByText('Qualified: 12');
  await userEvent.upload(screen.getByLabelText('Upload CSV'), csvFile('email,stage\n'));
  expect(await screen.findByText(/missing: time/)).toBeInTheDocument();
});

it('shows a new key once, with a request to copy, and the key’s state after', async () => {
  server.use(
    http.post(paths.folderOutcomeKey(FOLDER), () => {
      summary = { ...summary, key: { hint: 'DEFG', created_at: '2025-03-05T09:00:00Z', last_used_at: null } };
      return HttpResponse.json({ key: KEY, status: summary.key }, { status: 201 });
    }),
  );
  renderWithAdmin(<LeadOutcomesSection folderId={FOLDER} />);
  await userEvent.click(await screen.findByRole('button', { name: 'Create key' }));

  expect(await screen.findByDisplayValue(KEY)).toBeInTheDocument();
  const example = screen.getByLabelText('Example request') as HTMLTextAreaElement;
  expect(example.value).toContain(`Authorization: Bearer ${KEY}`);
  expect(example.value).toContain('/api/lead_outcomes/');
  expect(
    screen.getByText('Copy the key now: it is shown only this once and cannot be read again.'),
  ).toBeInTheDocument();
  expect(await screen.findByRole('button', { name: 'Rotate key' })).toBeInTheDocument();
  expect(screen.getByText(/Key ending DEFG/)).toBeInTheDocument();
});
