/**
 * The side panel's screens below its own entries: Activity, Log, Impact, Agency overview and Ads, each
 * to those its route opens to, in that order; the panel's own entries stay as they were. Every entry
 * has its icon.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { http, HttpResponse, setupMswServer } from '../../support/msw';
import { renderApp, signIn, signOut } from '../../support/renderApp';
import { withAccesses } from '../../support/users';

setupMswServer(http.get('/api/*', () => HttpResponse.json({ count: 0, next: null, previous: null, results: [] })));

/** An address no screen owns: the shared layout around react-admin's not-found page. */
const SHELL = '/no-such-page';
const OWN = ['General', 'Campaigns', 'Team', 'Account'];

beforeEach(() => signOut());

async function panelLinks() {
  await userEvent.setup().click(await screen.findByRole('button', { name: 'Open menu' }));
  const panel = await screen.findByRole('navigation', { name: 'Ad Rules Console' });
  return within(panel)
    .getAllByRole('link')
    .map((link) => [link.textContent, link.getAttribute('href')]);
}

describe('side panel screens', () => {
  it('lists Activity, Log, Impact, Agency overview and Ads after the panel’s own entries, each with its icon', async () => {
    signIn({ is_superuser: true });
    renderApp(SHELL);
    const links = await panelLinks();
    expect(links.slice(-5)).toEqual([
      ['Activity', '/activity'],
      ['Log', '/log'],
      ['Impact', '/impact'],
      ['Agency overview', '/overview'],
      ['Ads', '/ads'],
    ]);
    const names = links.map(([name]) => name);
    // The panel's own entries come first, in their order.
    expect(names.filter((name) => OWN.includes(name!))).toEqual(OWN);
    expect(names.indexOf('Account')).toBeLessThan(names.indexOf('Activity'));
    for (const name of ['Activity', 'Log', 'Impact', 'Agency overview', 'Ads'])
      expect(screen.getByRole('link', { name }).querySelector('svg')).not.toBeNull();
  });

  it('draws an icon on every entry: the panel’s own, each resource’s (its definition’s icon) and the screens', async () => {
    signIn({ is_superuser: true });
    renderApp(SHELL);
    const links = await panelLinks();
    expect(links.map(([name]) => name)).toEqual(expect.arrayContaining([...OWN, 'Templates', 'Ad accounts']));
    // A defined resource's icon loads lazily: its room holds a blank box until then.
    await waitFor(() => {
      for (const link of screen.getAllByRole('link').filter((l) => l.closest('nav')))
        expect(link.querySelector('svg'), link.textContent ?? '').not.toBeNull();
    });
  });

  it('a greyed entry keeps its icon', async () => {
    signIn(withAccesses('read_rules'));
    renderApp(SHELL);
    await panelLinks();
    const campaigns = screen.getByText('Campaigns').closest('li');
    expect(campaigns).toHaveAttribute('aria-disabled', 'true');
    expect(campaigns!.querySelector('svg')).not.toBeNull();
  });

  it('with view_logs: Activity, Log, Impact and Ads, not the overview (it needs read_rules)', async () => {
    signIn(withAccesses('view_logs'));
    renderApp(SHELL);
    const names = (await panelLinks()).map(([name]) => name);
    expect(names).toEqual(expect.arrayContaining(['Activity', 'Log', 'Impact', 'Ads']));
    expect(names).not.toContain('Agency overview');
  });

  it('with read_rules: the overview only', async () => {
    signIn(withAccesses('read_rules'));
    renderApp(SHELL);
    const names = (await panelLinks()).map(([name]) => name);
    expect(names).toContain('Agency overview');
    for (const hidden of ['Activity', 'Log', 'Impact', 'Ads']) expect(names).not.toContain(hidden);
  });

  it('without either: none of them, and the panel’s own entries as before', async () => {
    signIn(withAccesses('add_edit_campaigns'));
    renderApp(SHELL);
    const names = (await panelLinks()).map(([name]) => name);
    for (const hidden of ['Activity', 'Log', 'Impact', 'Agency overview', 'Ads']) expect(names).not.toContain(hidden);
    expect(names).toEqual(expect.arrayContaining(['General', 'Campaigns', 'Account']));
  });

  it('a screen’s entry takes the user there and closes the panel', async () => {
    signIn(withAccesses('read_rules'));
    renderApp(SHELL);
    await panelLinks();
    await userEvent.setup().click(screen.getByRole('link', { name: 'Agency overview' }));
    expect(await screen.findByTestId('address')).toHaveTextContent('/overview');
    await waitFor(() => expect(screen.queryByRole('navigation', { name: 'Ad Rules Console' })).not.toBeInTheDocument());
  });
});
