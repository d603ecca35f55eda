/**
 * The 7×24 schedule grid (click a cell; a day name toggles the whole day, an hour heading the hour
 * on every day) and the 24-hour alert row. Cells are toggle buttons (aria-pressed).
 */
import { Box, ButtonBase, Typography, useMediaQuery, type Theme } from '@mui/material';
import { useTranslate } from 'react-admin';
import { DAYS } from '../../domain/constants';
import {
  HOURS,
  hourLabel,
  isDayFull,
  isHourOnEveryDay,
  type DaySchedule,
  type WeekSchedule,
} from '../../domain/schedule';

const CELL = 30;

function Cell({
  on,
  label,
  onClick,
  header = false,
  text,
}: {
  on: boolean;
  label: string;
  onClick: () => void;
  header?: boolean;
  text?: string;
}) {
  return (
    <ButtonBase
      aria-label={label}
      aria-pressed={on}
      title={label}
      onClick={onClick}
      sx={{
        width: header ? CELL : CELL,
        height: header ? 36 : CELL - 4,
        m: '2px',
        borderRadius: 1,
        fontSize: 10,
        lineHeight: 1.1,
        color: on && !header ? 'primary.contrastText' : 'text.secondary',
        bgcolor: header ? (on ? 'primary.light' : 'transparent') : on ? 'primary.main' : 'action.hover',
        ...(header && on ? { color: 'primary.contrastText' } : {}),
        '&:hover': { outline: 1, outlineColor: 'primary.main' },
        '&:focus-visible': { outline: 2, outlineColor: 'primary.dark' },
      }}
    >
      {text}
    </ButtonBase>
  );
}

/** '12 AM' → '12a', '5 PM' → '5p': the compact hour headings of narrow screens. */
const shortHour = (hour: number) => hourLabel(hour).replace(' AM', 'a').replace(' PM', 'p');

/**
 * Hour headings as docs/contract.md#entities names the hours, '12 AM' … '11 PM' (the number over AM/PM in a 30 px
 * column); below the md breakpoint the compact '12a' … '11p'.
 */
function useHourHeading(): (hour: number) => string {
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('md'), { noSsr: true });
  return narrow ? shortHour : hourLabel;
}

export function WeekScheduleGrid({
  schedule,
  onToggleCell,
  onToggleDay,
  onToggleHour,
}: {
  schedule: WeekSchedule;
  onToggleCell: (day: number, hour: number) => void;
  onToggleDay: (day: number) => void;
  onToggleHour: (hour: number) => void;
}) {
  const translate = useTranslate();
  const heading = useHourHeading();
  return (
    <Box sx={{ overflowX: 'auto' }} role="group" aria-label={translate('rules.editor.schedule')}>
      <Box sx={{ display: 'inline-block', minWidth: 'max-content' }}>
        <Box sx={{ display: 'flex', alignItems: 'center' }}>
          <Box sx={{ width: 96 }} />
          {HOURS.map((hour) => (
            <Cell
              key={hour}
              header
              on={isHourOnEveryDay(schedule, hour)}
              text={heading(hour)}
              label={translate('rules.editor.whole_hour', { hour: hourLabel(hour) })}
              onClick={() => onToggleHour(hour)}
            />
          ))}
        </Box>
        {DAYS.map((day, d) => (
          <Box key={day} sx={{ display: 'flex', alignItems: 'center' }}>
            <ButtonBase
              aria-label={translate('rules.editor.whole_day', { day })}
              aria-pressed={isDayFull(schedule, d)}
              onClick={() => onToggleDay(d)}
              sx={{
                width: 92,
                mr: '4px',
                justifyContent: 'flex-start',
                px: 1,
                borderRadius: 1,
                height: CELL - 4,
                '&:hover': { bgcolor: 'action.hover' },
              }}
            >
              <Typography variant="body2">{day}</Typography>
            </ButtonBase>
            {HOURS.map((hour) => (
              <Cell
                key={hour}
                on={Boolean(schedule[d]?.[hour])}
                label={translate('rules.editor.cell', { day, hour: hourLabel(hour) })}
                onClick={() => onToggleCell(d, hour)}
              />
            ))}
          </Box>
        ))}
      </Box>
    </Box>
  );
}

export function AlertScheduleRow({ schedule, onToggle }: { schedule: DaySchedule; onToggle: (hour: number) => void }) {
  const translate = useTranslate();
  const heading = useHourHeading();
  return (
    <Box sx={{ overflowX: 'auto' }} role="group" aria-label={translate('rules.editor.alert_schedule')}>
      <Box sx={{ display: 'flex', minWidth: 'max-content', pl: '96px' }}>
        {HOURS.map((hour) => (
          <Box key={hour} sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center' }}>
            <Typography
              variant="caption"
              color="text.secondary"
              sx={{ fontSize: 10, lineHeight: 1.1, width: CELL, textAlign: 'center' }}
            >
              {heading(hour)}
            </Typography>
            <Cell
              on={Boolean(schedule[hour])}
              label={translate('rules.editor.alert_cell', { hour: hourLabel(hour) })}
              onClick={() => onToggle(hour)}
            />
          </Box>
        ))}
      </Box>
    </Box>
  );
}
