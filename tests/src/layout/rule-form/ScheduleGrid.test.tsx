/** docs/contract.md#entities: the schedule grids name the hours 12 AM … 11 PM; both follow the ARIA grid pattern. */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { AlertScheduleRow, WeekScheduleGrid } from '../../../../src/layout/rule-form/ScheduleGrid';
import { defaultAlertDay, defaultWeek, toggleCell, toggleAlertHour } from '../../../../shared/schedule';
import { renderWithAdmin } from '../../../support/renderApp';

const HOURS = [
  '12 AM',
  ...Array.from({ length: 11 }, (_, h) => `${h + 1} AM`),
  '12 PM',
  ...Array.from({ length: 11 }, (_, h) => `${h + 1} PM`),
];

const noop = () => undefined;

function EditableWeek() {
  const [schedule, setSchedule] = useState(defaultWeek());
  return (
    <WeekScheduleGrid
      schedule={schedule}
      onToggleCell={(day, hour) => setSchedule((s) => toggleCell(s, day, hour))}
      onToggleDay={noop}
      onToggleHour={noop}
    />
  );
}

function EditableAlerts() {
  const [schedule, setSchedule] = useState(defaultAlertDay());
  return <AlertScheduleRow schedule={schedule} onToggle={(hour) => setSchedule((s) => toggleAlertHour(s, hour))} />;
}

const tabStops = (grid: HTMLElement) => grid.querySelectorAll('[tabindex="0"]').length;

describe('schedule grids', () => {
  it('head the week grid with the hours 12 AM to 11 PM', async () => {
    renderWithAdmin(
      <WeekScheduleGrid schedule={defaultWeek()} onToggleCell={noop} onToggleDay={noop} onToggleHour={noop} />,
    );
    const grid = await screen.findByRole('grid', { name: 'Schedule' });
    const headings = within(grid)
      .getAllByRole('button', { name: /: every day$/ })
      .map((button) => button.textContent);
    expect(headings).toEqual(HOURS);
    expect(within(grid).getAllByRole('row')).toHaveLength(8);
  });

  it('label the alert row the same way', async () => {
    renderWithAdmin(<AlertScheduleRow schedule={defaultAlertDay()} onToggle={noop} />);
    const row = await screen.findByRole('grid', { name: 'Alert schedule' });
    for (const hour of HOURS) expect(within(row).getByRole('columnheader', { name: hour })).toBeInTheDocument();
  });

  it('are one Tab stop; the arrow keys move between cells and Space and Enter switch them', async () => {
    const user = userEvent.setup();
    renderWithAdmin(
      <>
        <button type="button">before</button>
        <EditableWeek />
        <button type="button">after</button>
      </>,
    );
    const grid = await screen.findByRole('grid', { name: 'Schedule' });
    expect(tabStops(grid)).toBe(1);
    await user.click(screen.getByRole('button', { name: 'before' }));
    await user.tab();
    expect(document.activeElement).toBe(within(grid).getByRole('button', { name: 'Sunday 12 AM' }));
    await user.keyboard('{ArrowRight}{ArrowRight}{ArrowDown}');
    const mondayTwo = within(grid).getByRole('button', { name: 'Monday 2 AM' });
    expect(document.activeElement).toBe(mondayTwo);
    expect(mondayTwo).toHaveAttribute('aria-pressed', 'true');
    await user.keyboard(' ');
    expect(mondayTwo).toHaveAttribute('aria-pressed', 'false');
    await user.keyboard('{Enter}');
    expect(mondayTwo).toHaveAttribute('aria-pressed', 'true');
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(within(grid).getByRole('button', { name: 'Monday: every hour' }));
    await user.keyboard('{Control>}{End}{/Control}');
    expect(document.activeElement).toBe(within(grid).getByRole('button', { name: 'Saturday 11 PM' }));
    // Still one Tab stop, now where the focus was; Tab leaves the grid.
    expect(tabStops(grid)).toBe(1);
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'after' }));
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(within(grid).getByRole('button', { name: 'Saturday 11 PM' }));
  });

  it('move along the alert row with the arrow keys and switch an hour with Space', async () => {
    const user = userEvent.setup();
    renderWithAdmin(<EditableAlerts />);
    const grid = await screen.findByRole('grid', { name: 'Alert schedule' });
    expect(tabStops(grid)).toBe(1);
    await user.tab();
    await user.keyboard('{End}{ArrowLeft}');
    const tenPm = within(grid).getByRole('button', { name: 'Alert at 10 PM' });
    expect(document.activeElement).toBe(tenPm);
    await user.keyboard(' ');
    expect(tenPm).toHaveAttribute('aria-pressed', 'true');
  });
});
