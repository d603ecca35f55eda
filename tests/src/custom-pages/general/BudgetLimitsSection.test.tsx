/**
 * The folder dialog's Budget limits: folded by default, the folder's five limits when opened, a
 * wrong value refused before any call, the changed limits sent as `budget_limits` (null once the
 * daily increase limit is switched off), the server's refusal under its field.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { FolderDialog } from '../../../../src/custom-pages/general/FolderDialog';
import type { FolderDto } from '../../../../shared/folders';
import { paths } from '../../../../src/providers/apiPaths';
import { captureConsoleErrors, loggedHttpStatuses } from '../../../support/consoleErrors';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderWithAdmin, signIn, signOut } from '../../../support/renderApp';
import { folder } from '../../fixtures/rules';

const server = setupMswServer();

const LIMITS = {
  growth_24h_pct: 40,
  growth_7d_pct: 90,
  significant_pct: 20,
  settle_hours: 72,
  daily_increase_limit: 1500,
};
const stored = { ...folder(1), budget_limits: LIMITS } as FolderDto;

let bodies: Record<string, unknown>[];
let refusal: Record<string, string[]> | null;

beforeEach(() => {
  signOut();
  bodies = [];
  refusal = null;
  server.use(
    http.get(paths.metaAdAccounts, () => HttpResponse.json([{ ad_account_id: 'act_1', account_name: 'Account 1' }])),
    http.get(paths.folderLeadOutcomes(1), () => HttpResponse.json({ stages: [], last_recorded_at: null, key: null })),
    http.patch(paths.generalPageFolder(1), async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      bodies.push(body);
      if (refusal) return HttpResponse.json(refusal, { status: 400 });
      return HttpResponse.json({ ...stored, ...body });
    }),
  );
  signIn();
});

async function openDialog() {
  const saved: FolderDto[] = [];
  renderWithAdmin(<FolderDialog open folder={stored} onClose={() => {}} onSaved={(f) => saved.push(f)} />);
  const dialog = await screen.findByRole('dialog', { name: 'Update Folder' });
  return { dialog, saved, user: userEvent.setup() };
}

const field = (dialog: HTMLElement, name: string) => within(dialog).getByRole('textbox', { name });

describe('the folder’s budget limits', () => {
  it('are folded until opened, show the stored limits and send the changed ones', async () => {
    const { dialog, saved, user } = await openDialog();
    const summary = within(dialog).getByRole('button', { name: 'Budget limits' });
    expect(summary).toHaveAttribute('aria-expanded', 'false');
    expect(within(dialog).queryByRole('textbox', { name: 'Growth in 24 hours' })).not.toBeInTheDocument();

    await user.click(summary);
    expect(field(dialog, 'Growth in 24 hours')).toHaveValue('40');
    expect(field(dialog, 'Growth in 7 days')).toHaveValue('90');
    expect(field(dialog, 'Significant change')).toHaveValue('20');
    expect(field(dialog, 'Hours to settle')).toHaveValue('72');
    expect(field(dialog, 'Daily increase limit')).toHaveValue('1500');

    await user.clear(field(dialog, 'Growth in 24 hours'));
    await user.type(field(dialog, 'Growth in 24 hours'), '25');
    await user.click(within(dialog).getByRole('switch', { name: 'Hold runs that add more than this' }));
    expect(field(dialog, 'Daily increase limit')).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));

    await waitFor(() => expect(saved).toHaveLength(1));
    expect(bodies[0]).toMatchObject({
      name: 'Client 1',
      budget_limits: {
        growth_24h_pct: 25,
        growth_7d_pct: 90,
        significant_pct: 20,
        settle_hours: 72,
        daily_increase_limit: null,
      },
    });
  });

  it('leave budget_limits out when untouched', async () => {
    const { dialog, saved, user } = await openDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(bodies[0]).not.toHaveProperty('budget_limits');
  });

  it('refuse a 7-day growth under the 24-hour one before any call, and show the server’s refusal', async () => {
    const { dialog, user } = await openDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Budget limits' }));
    await user.clear(field(dialog, 'Growth in 7 days'));
    await user.type(field(dialog, 'Growth in 7 days'), '30');
    expect(within(dialog).getByText('Must be at least the 24-hour growth')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(bodies).toHaveLength(0);

    await user.clear(field(dialog, 'Growth in 7 days'));
    await user.type(field(dialog, 'Growth in 7 days'), '100');
    refusal = { 'budget_limits.settle_hours': ['Must be at most 336'] };
    const consoleErrors = captureConsoleErrors();
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    const settle = field(dialog, 'Hours to settle').closest('.MuiFormControl-root') as HTMLElement;
    expect(await within(settle).findByText('Must be at most 336')).toBeInTheDocument();
    expect(bodies[0]).toMatchObject({ budget_limits: { growth_7d_pct: 100 } });
    expect(loggedHttpStatuses(consoleErrors)).toEqual([400]);
  });
});
