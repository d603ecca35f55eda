/**
 * The cards of the tasks on what a lead became: below the seven task cards, in their style, with
 * their help (they wait for the event and a minimum), the note on what website leads can use, the
 * stage as a choice, and the domain's field errors under the fields.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { TaskCards } from '../../../../src/layout/rule-form/RuleItemsFields';
import { defaultTasks, taskSpec, taskValueError, type TaskItem } from '../../../../shared/rules';
import { renderWithAdmin } from '../../../support/renderApp';

/** The task cards as the editor holds them: switches and values kept, each field's error from the domain. */
function EditableTasks() {
  const [tasks, setTasks] = useState<TaskItem[]>(defaultTasks());
  const errors = Object.fromEntries(
    tasks.map((task) => [
      task.name,
      Object.fromEntries(
        taskSpec(task.name)!
          .values.map((v) => [v.key, taskValueError(task, v.key)])
          .filter(([, error]) => error),
      ),
    ]),
  );
  return (
    <TaskCards
      tasks={tasks}
      errors={errors}
      onToggle={(name, active) =>
        setTasks((all) => all.map((t) => (t.name === name ? { ...t, is_active: active } : t)))
      }
      onValue={(name, key, value) =>
        setTasks((all) => all.map((t) => (t.name === name ? { ...t, values: { ...t.values, [key]: value } } : t)))
      }
    />
  );
}

const ATTENDEE = 'Turn off the ad if cost per attendee is above a value';
const SHOW_UP = 'Turn off the ad if show-up rate is below a percentage';
const STAGE = 'Turn off the ad if cost per CRM stage is above a value';

describe('the outcome task cards', () => {
  it('come after the seven task cards, under "What a lead became", with their help and the website-lead note', () => {
    renderWithAdmin(<EditableTasks />);
    const cards = screen.getAllByTestId(/^task-/).map((card) => card.dataset.testid);
    expect(cards.slice(7)).toEqual(['task-cost_per_attendee', 'task-show_up_rate', 'task-cost_per_stage']);
    const section = screen.getByRole('region', { name: 'What a lead became' });
    for (const wording of [ATTENDEE, SHOW_UP, STAGE]) expect(within(section).getByText(wording)).toBeInTheDocument();
    expect(
      within(screen.getByTestId('task-cost_per_attendee')).getByText(/until its first event it waits/),
    ).toBeInTheDocument();
    expect(within(screen.getByTestId('task-cost_per_stage')).getByText(/past the stage's window/)).toBeInTheDocument();
    const note = screen.getByTestId('website-leads-note');
    expect(note).toHaveTextContent('Website leads have no Meta form');
    expect(note).toHaveTextContent('cost per attendee and show-up rate');
    expect(note).toHaveTextContent('CRM stages match them by lead e-mail');
  });

  it('ask for the minimum settled registrations and say what is wrong with a value', async () => {
    const user = userEvent.setup();
    renderWithAdmin(<EditableTasks />);
    await user.click(screen.getByRole('switch', { name: `Turn on: ${ATTENDEE}` }));
    const card = within(screen.getByTestId('task-cost_per_attendee'));
    expect(card.getAllByText('Field is required')).toHaveLength(2);
    await user.type(screen.getByRole('textbox', { name: `${ATTENDEE}: Cost` }), '0');
    await user.type(screen.getByRole('textbox', { name: `${ATTENDEE}: Min. settled registrations` }), '2.5');
    expect(card.getByText('Must be greater than 0')).toBeInTheDocument();
    expect(card.getByText('Field must be an integer')).toBeInTheDocument();

    await user.click(screen.getByRole('switch', { name: `Turn on: ${SHOW_UP}` }));
    await user.type(screen.getByRole('textbox', { name: `${SHOW_UP}: Show-up rate` }), '120');
    expect(
      within(screen.getByTestId('task-show_up_rate')).getByText('Must be more than 0 and at most 100'),
    ).toBeInTheDocument();
  });

  it('offer the CRM stages to choose from for cost per stage', async () => {
    const user = userEvent.setup();
    renderWithAdmin(<EditableTasks />);
    await user.click(screen.getByRole('switch', { name: `Turn on: ${STAGE}` }));
    const card = within(screen.getByTestId('task-cost_per_stage'));
    expect(card.getAllByText('Field is required')).toHaveLength(3);
    await user.click(card.getByRole('combobox'));
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Qualified', 'Booked', 'Attended', 'Won']);
    await user.click(screen.getByRole('option', { name: 'Booked' }));
    expect(card.getAllByText('Field is required')).toHaveLength(2);
    expect(card.getByRole('combobox')).toHaveTextContent('Booked');
  });
});
