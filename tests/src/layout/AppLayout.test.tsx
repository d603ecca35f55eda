import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppLayout } from '../../../src/layout/AppLayout';
import { ErrorList } from '../../../src/layout/ErrorList';
import { HeaderContent } from '../../../src/layout/HeaderSlots';
import { PageTitle } from '../../../src/layout/pageTitle';
import { TrashLink } from '../../../src/layout/TrashLink';
import { session } from '../../../src/providers/session';
import { http, HttpResponse, setupMswServer } from '../../support/msw';
import { renderApp, renderWithAdmin, signIn, signOut } from '../../support/renderApp';
import { withAccesses } from '../../support/users';

// Screens built on the layout may load data; they get empty answers so these tests see only the shell.
const ended: unknown[] = [];
setupMswServer(
  http.get('/api/*', () => HttpResponse.json({ count: 0, next: null, previous: null, results: [] })),
  http.post('/api/token/logout/', async ({ request }) => {
    ended.push(await request.json());
    return new HttpResponse(null, { status: 204 });
  }),
);

/** An address no screen owns: react-admin's not-found page inside the shared layout. */
const SHELL = '/no-such-page';

beforeEach(() => signOut());

async function openSidePanel() {
  await userEvent.setup().click(await screen.findByRole('button', { name: 'Open menu' }));
  return screen.findByRole('navigation', { name: 'Ad Rules Console' });
}

describe('side panel', () => {
  it('is titled with the product name and links General, Campaigns, Team and Account', async () => {
    signIn(withAccesses('add_edit_campaigns', 'update_permissions'));
    renderApp(SHELL);
    const panel = await openSidePanel();
    expect(within(panel).getByRole('heading', { name: 'Ad Rules Console' })).toBeInTheDocument();
    expect(within(panel).getByRole('link', { name: 'General' })).toHaveAttribute('href', '/');
    expect(within(panel).getByRole('link', { name: 'Campaigns' })).toHaveAttribute('href', '/campaigns');
    expect(within(panel).getByRole('link', { name: 'Team' })).toHaveAttribute('href', '/team');
    expect(within(panel).getByRole('link', { name: 'Account' })).toHaveAttribute('href', '/account');
  });

  it('greys out Campaigns with an explanation without add_edit_campaigns', async () => {
    signIn(withAccesses('read_rules'));
    renderApp(SHELL);
    const panel = await openSidePanel();
    expect(within(panel).queryByRole('link', { name: 'Campaigns' })).not.toBeInTheDocument();
    const label = within(panel).getByText('Campaigns');
    await userEvent.setup().hover(label);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      "You need 'add edit campaigns' permissions to access Campaigns.",
    );
  });
});

describe('Team: one access rule for the side panel, the user menu and /team', () => {
  const menuEntries = async (name: string) => {
    await userEvent.setup().click(await screen.findByRole('button', { name }));
    return within(await screen.findByRole('menu'))
      .getAllByRole('menuitem')
      .map((item) => item.textContent);
  };

  it('greys out Team with an explanation, and leaves it out of the user menu, without a team permission', async () => {
    signIn(withAccesses('read_rules', 'view_permissions'));
    renderApp(SHELL);
    const panel = await openSidePanel();
    expect(within(panel).queryByRole('link', { name: 'Team' })).not.toBeInTheDocument();
    await userEvent.setup().hover(within(panel).getByText('Team'));
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      "You need 'update permissions', 'add edit users' or 'is staff' permissions to access Team.",
    );
  });

  it.each(['add_edit_users', 'is_staff', 'update_permissions'])(
    'with %s: the side panel links Team and the user menu lists it',
    async (access) => {
      signIn(withAccesses(access));
      renderApp(SHELL);
      const panel = await openSidePanel();
      expect(within(panel).getByRole('link', { name: 'Team' })).toHaveAttribute('href', '/team');
      await userEvent.setup().keyboard('{Escape}');
      await waitFor(() =>
        expect(screen.queryByRole('navigation', { name: 'Ad Rules Console' })).not.toBeInTheDocument(),
      );
      expect(await menuEntries('Ada Lovelace')).toEqual(['Team', 'My account', 'Log out']);
    },
  );

  it('without a team permission the menu has no Team, and /team is closed', async () => {
    signIn(withAccesses('read_rules'));
    renderApp(SHELL);
    expect(await menuEntries('Ada Lovelace')).toEqual(['My account', 'Log out']);
  });
});

describe('header', () => {
  it('shows the page name and the content slot, and sets the document title', async () => {
    signIn();
    renderWithAdmin(
      <AppLayout>
        <PageTitle title="app.page.permissions" />
        <HeaderContent>
          <button type="button">Save</button>
        </HeaderContent>
      </AppLayout>,
    );
    const header = await screen.findByRole('banner');
    expect(await within(header).findByText('Permissions')).toBeInTheDocument();
    expect(within(header).getByRole('button', { name: 'Save' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Ad Rules Console | Permissions'));
  });

  it('user menu: the name, and entries by permission', async () => {
    signIn({ first_name: 'Ada', last_name: 'Lovelace', ...withAccesses('view_permissions') });
    renderApp(SHELL);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Ada Lovelace' }));
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Permissions', 'My account', 'Log out']);
  });

  it('user menu: Team with update_permissions; a superuser sees every entry', async () => {
    signIn({ is_superuser: true });
    renderApp(SHELL);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Ada Lovelace' }));
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Team', 'Permissions', 'My account', 'Log out']);
    for (const item of within(menu).getAllByRole('menuitem'))
      expect(item.querySelector('svg'), item.textContent ?? '').not.toBeNull();
  });

  it('Log out clears the session and goes to /login', async () => {
    signIn();
    renderApp(SHELL);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Ada Lovelace' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Log out' }));
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(screen.getByTestId('address')).toHaveTextContent('/login');
    expect(session.get().access_token).toBeNull();
    expect(JSON.parse(localStorage.getItem('auth')!)).toMatchObject({ isAuthenticated: false, user: null });
    await waitFor(() => expect(ended).toHaveLength(1)); // the session ended on the server too
  });
});

describe('trash link', () => {
  it('goes to the trash with delete_rules', async () => {
    signIn(withAccesses('delete_rules'));
    renderWithAdmin(<TrashLink />);
    expect(await screen.findByRole('link', { name: 'Trash' })).toHaveAttribute('href', '/trash/');
  });

  it("is disabled with 'You do not have permission.' without delete_rules", async () => {
    signIn(withAccesses('read_rules'));
    renderWithAdmin(<TrashLink />);
    const button = await screen.findByRole('button', { name: 'Trash' });
    expect(button).toBeDisabled();
    await userEvent.setup().hover(button.parentElement!);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('You do not have permission.');
  });
});

describe('error list', () => {
  it('renders each message as a list item, and nothing when empty', () => {
    const { rerender, container } = renderWithAdmin(
      <ErrorList errors={['Email: E-mail must be valid', 'Internal error: Network Error']} />,
    );
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Email: E-mail must be valid',
      'Internal error: Network Error',
    ]);
    rerender(<ErrorList errors={[]} />);
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
    expect(container).not.toHaveTextContent('Network Error');
  });
});
