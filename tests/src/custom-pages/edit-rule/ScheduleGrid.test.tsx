/** docs/contract.md#entities: the schedule grids name the hours 12 AM … 11 PM. */
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AlertScheduleRow, WeekScheduleGrid } from '../../../../src/custom-pages/edit-rule/ScheduleGrid';
import { defaultAlertDay, defaultWeek } from '../../../../src/domain/schedule';
import { renderWithAdmin } from '../../../support/renderApp';

const HOURS = [
  '12 AM',
  ...Array.from({ length: 11 }, (_, h) => `${h + 1} AM`),
  '12 PM',
  ...Array.from({ length: 11 }, (_, h) => `${h + 1} PM`),
];

const noop = () => undefined;

describe('schedule grids', () => {
  it('head the week grid with the hours 12 AM to 11 PM', async () => {
    renderWithAdmin(
      <WeekScheduleGrid schedule={defaultWeek()} onToggleCell={noop} onToggleDay={noop} onToggleHour={noop} />,
    );
    const grid = await screen.findByRole('group', { name: 'Schedule' });
    const headings = within(grid)
      .getAllByRole('button', { name: /: every day$/ })
      .map((button) => button.textContent);
    expect(headings).toEqual(HOURS);
  });

  it('label the alert row the same way', async () => {
    renderWithAdmin(<AlertScheduleRow schedule={defaultAlertDay()} onToggle={noop} />);
    const row = await screen.findByRole('group', { name: 'Alert schedule' });
    for (const hour of HOURS) expect(within(row).getByText(hour)).toBeInTheDocument();
  });
});
