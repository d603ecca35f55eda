/** The A / L / I buttons of the General view's rows: their letters, accessible names and tooltips. */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { paths } from '../../../../src/providers/apiPaths';
import { http, HttpResponse, setupMswServer } from '../../../support/msw';
import { renderApp, signIn, signOut } from '../../../support/renderApp';
import { withAccesses } from '../../../support/users';
import { folder, pageOf, ruleRow } from '../../fixtures/rules';

const server = setupMswServer();

beforeEach(() => {
  signOut();
  const folders = [folder(1, { name: 'Harbor', rules: [ruleRow(100, 1, { name: 'Pause CPL > $40' })] })];
  server.use(http.get(paths.generalPage, ({ request }) => HttpResponse.json(pageOf(folders, new URL(request.url)))));
  signIn(withAccesses('read_rules', 'view_logs'));
});

describe('General view: the A / L / I buttons', () => {
  it('keep their letters, name whose activity, log and impact they open, and link there', async () => {
    renderApp('/');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Show the rules of Harbor' }));
    const rule = await screen.findByTestId('rule-100');
    const expected = [
      ['A', 'Activity of rule Pause CPL > $40', '/activity?rule_id=100'],
      ['L', 'Log of rule Pause CPL > $40', '/log?rule_id=100'],
      ['I', 'Impact of rule Pause CPL > $40', '/impact?scope=rule&id=100'],
    ] as const;
    for (const [letter, name, href] of expected) {
      const link = within(rule).getByRole('link', { name });
      expect(link).toHaveTextContent(new RegExp(`^${letter}$`));
      expect(link).toHaveAttribute('href', href);
    }
    const folderRow = screen.getByTestId('folder-1');
    expect(within(folderRow).getByRole('link', { name: 'Activity of folder Harbor' })).toHaveTextContent(/^A$/);
    expect(within(folderRow).getByRole('link', { name: 'Log of folder Harbor' })).toHaveTextContent(/^L$/);
    expect(within(folderRow).getByRole('link', { name: 'Impact of folder Harbor' })).toHaveTextContent(/^I$/);
  });

  it.each([['Activity of rule Pause CPL > $40'], ['Log of rule Pause CPL > $40'], ['Impact of rule Pause CPL > $40']])(
    'shows the tooltip %j on hover',
    async (name) => {
      renderApp('/');
      const user = userEvent.setup();
      await user.click(await screen.findByRole('button', { name: 'Show the rules of Harbor' }));
      const rule = await screen.findByTestId('rule-100');
      await user.hover(within(rule).getByRole('link', { name }));
      expect(await screen.findByRole('tooltip')).toHaveTextContent(name);
    },
  );
});
