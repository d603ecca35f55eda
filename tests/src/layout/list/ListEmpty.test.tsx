/** Log and Activity with no rows say why: nothing yet, or nothing matching the search or chips. */
import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { paths } from '../../../../src/providers/apiPaths';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderApp, signIn, signOut } from '../../../support/renderApp';
import { withAccesses } from '../../../support/users';

const nothing = () => HttpResponse.json({ count: 0, next: null, previous: null, results: [] });
setupMswServer(http.get(paths.log, nothing), http.get(paths.ruleLog, nothing));

beforeEach(() => {
  signOut();
  signIn(withAccesses('view_logs'));
});

describe('empty Log and Activity', () => {
  it('Log: says nothing has been logged yet', async () => {
    renderApp('/log');
    expect(
      await screen.findByText('No changes yet. Every change to folders, rules, users and groups shows here.'),
    ).toBeInTheDocument();
  });

  it('Log with a chip: says nothing matches and how to see more', async () => {
    renderApp('/log?rule_id=5');
    expect(await screen.findByText('Nothing matches the search or the filters.')).toBeInTheDocument();
    expect(screen.getByText('Clear the search or remove a filter chip to see more.')).toBeInTheDocument();
    expect(screen.queryByText(/No changes yet/)).not.toBeInTheDocument();
  });

  it('Activity: says the rules have not acted yet', async () => {
    renderApp('/activity');
    expect(
      await screen.findByText('The rules have not acted yet. What they turn off, and why, shows here.'),
    ).toBeInTheDocument();
  });
});
