/**
 * The alert deliveries, in the browser: each post to a destination with its status, attempts, the
 * answer's code and the time of its last attempt (read-only: no Create, rows open nothing).
 */
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { apiUrl } from '../../../../src/providers/apiPaths';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderApp, signIn, signOut } from '../../../support/renderApp';
import { withAccesses } from '../../../support/users';

const server = setupMswServer();
const page = (results: unknown[]) => ({ count: results.length, next: null, previous: null, results });
const delivery = {
  id: 4,
  created_at: '2026-11-26T05:00:00.000Z',
  source: 'held_run',
  destination_name: 'Ops channel',
  state: 'failed',
  answer_code: 403,
  attempts: 1,
  last_attempt_at: '2026-11-26T05:00:02.000Z',
  error: 'the webhook answered 403',
};

beforeEach(() => {
  signOut();
  server.use(http.get(apiUrl('alert_deliveries/'), () => HttpResponse.json(page([delivery]))));
});

describe('alert deliveries', () => {
  it('lists each delivery with its status, answer code and attempts', async () => {
    signIn(withAccesses('read_rules'));
    renderApp('/alert_deliveries');
    const row = (await screen.findByText('Ops channel')).closest('tr')!;
    expect(within(row).getByText('failed')).toBeInTheDocument();
    expect(within(row).getByText('403')).toBeInTheDocument();
    expect(within(row).getByText('1')).toBeInTheDocument();
    expect(within(row).getByText('the webhook answered 403')).toBeInTheDocument();
    for (const column of ['Status', 'Answer code', 'Attempts', 'Last attempt'])
      expect(screen.getByRole('columnheader', { name: new RegExp(column) })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Create/ })).not.toBeInTheDocument();
  });
});
