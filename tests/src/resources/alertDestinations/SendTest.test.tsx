/**
 * The alert destinations list shows each one's last delivery (time, answer code, failures in a
 * row) and a Send a test button that says what the test's answer was; the edit screen shows the
 * problem too. Someone who may only read the list gets no button.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { apiUrl } from '../../../../src/providers/apiPaths';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderApp, signIn, signOut } from '../../../support/renderApp';
import { withAccesses } from '../../../support/users';

const server = setupMswServer();
const page = (results: unknown[]) => ({ count: results.length, next: null, previous: null, results });
const never = {
  id: 1,
  name: 'Ops channel',
  folder_id: null,
  url: '********WXYZ',
  is_active: true,
  last_delivery_at: null,
  last_delivery_source: null,
  last_answer_code: null,
  last_delivery_error: null,
  consecutive_failures: 0,
};
const failing = {
  ...never,
  id: 2,
  name: 'Sales channel',
  last_delivery_at: '2026-11-26T05:00:00.000Z',
  last_delivery_source: 'held_run',
  last_answer_code: 500,
  last_delivery_error: 'the webhook answered 500',
  consecutive_failures: 3,
};

let tested: unknown[] = [];
beforeEach(() => {
  signOut();
  tested = [];
  let current: Record<string, unknown> = never;
  server.use(
    http.get(apiUrl('alert_destinations/'), () => HttpResponse.json(page([current, failing]))),
    http.get(apiUrl('alert_destinations/2/'), () => HttpResponse.json(failing)),
    http.get(apiUrl('general_page/'), () => HttpResponse.json(page([]))),
    http.post(apiUrl('alert_destinations/1/test/'), () => {
      tested.push(1);
      current = {
        ...never,
        last_delivery_at: '2026-11-27T09:30:00.000Z',
        last_delivery_source: 'test',
        last_answer_code: 200,
      };
      return HttpResponse.json({
        ok: true,
        status_code: 200,
        detail: 'Delivered: the webhook answered 200',
        at: '2026-11-27T09:30:00.000Z',
      });
    }),
    http.post(apiUrl('alert_destinations/2/test/'), () =>
      HttpResponse.json({
        ok: false,
        status_code: 500,
        detail: 'the webhook answered 500',
        at: '2026-11-27T09:31:00.000Z',
      }),
    ),
  );
});

const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr')!;

describe('alert destinations: last delivery and Send a test', () => {
  it('shows each last delivery with its answer code and failures in a row, or that none was made', async () => {
    signIn(withAccesses('read_rules', 'create_update_rules'));
    renderApp('/alert_destinations');
    const sales = await rowOf('Sales channel');
    expect(screen.getByRole('columnheader', { name: 'Last delivery' })).toBeInTheDocument();
    expect(within(sales).getByText(/held run · answered 500/)).toBeInTheDocument();
    expect(within(sales).getByText('3 failures in a row')).toBeInTheDocument();
    expect(within(await rowOf('Ops channel')).getByText('Nothing delivered yet')).toBeInTheDocument();
  });

  it('sends a test and says what it answered, without opening the row; the list shows it as the last delivery', async () => {
    signIn(withAccesses('read_rules', 'create_update_rules'));
    renderApp('/alert_destinations');
    const user = userEvent.setup();
    await user.click(within(await rowOf('Ops channel')).getByRole('button', { name: 'Send a test to Ops channel' }));
    expect(await within(await rowOf('Ops channel')).findByRole('status')).toHaveTextContent('Delivered: answer 200');
    expect(tested).toEqual([1]);
    await waitFor(() =>
      expect(
        within(screen.getByText('Ops channel').closest('tr')!).getByText(/test · answered 200/),
      ).toBeInTheDocument(),
    );
    expect(screen.getByTestId('address')).toHaveTextContent(/^\/alert_destinations$/);

    await user.click(
      within(await rowOf('Sales channel')).getByRole('button', { name: 'Send a test to Sales channel' }),
    );
    expect(await within(await rowOf('Sales channel')).findByRole('status')).toHaveTextContent(
      'Failed: answer 500 (the webhook answered 500)',
    );
  });

  it('shows the problem and Send a test under the edit form', async () => {
    signIn(withAccesses('read_rules', 'create_update_rules'));
    renderApp('/alert_destinations/2');
    const panel = await screen.findByRole('region', { name: 'Last delivery' });
    expect(within(panel).getByText('Problem: the webhook answered 500')).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Send a test to Sales channel' })).toBeInTheDocument();
  });

  it('gives no Send a test to someone who may only read the destinations', async () => {
    signIn(withAccesses('read_rules'));
    renderApp('/alert_destinations');
    await rowOf('Ops channel');
    expect(screen.queryByRole('button', { name: /^Send a test/ })).not.toBeInTheDocument();
  });
});
