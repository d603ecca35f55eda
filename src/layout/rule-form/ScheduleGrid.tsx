/**
 * The 7×24 schedule grid (click a cell; a day name toggles the whole day, an hour heading the hour
 * on every day) and the 24-hour alert row. Both follow the ARIA grid pattern: one Tab stop, the
 * arrow keys between cells, Space or Enter to toggle; cells are toggle buttons (aria-pressed).
 * Each scrolls sideways inside its own box when the screen is narrower than the grid. On a phone
 * every cell, hour heading and day name is a 44 × 44 tap target (TAP_TARGET_PX).
 */
import { Box, ButtonBase, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { DAYS } from '../../../shared/constants';
import {
  HOURS,
  hourLabel,
  isDayFull,
  isHourOnEveryDay,
  type DaySchedule,
  type WeekSchedule,
} from '../../../shared/schedule';
import { useGridKeys } from '../useGridKeys';
import { TAP_TARGET_PX } from '../../theme';

const CELL = 30;
const DAY_COLUMN = 96;
/** A cell's width and height: MUI's sm breakpoint and up (desktop) as before, a tap target below it. */
const cellWidth = { xs: TAP_TARGET_PX, sm: CELL } as const;
const cellHeight = (header: boolean) => ({ xs: TAP_TARGET_PX, sm: header ? 36 : CELL - 4 }) as const;

interface CellProps {
  on: boolean;
  label: string;
  onClick: () => void;
  row: number;
  col: number;
  tabIndex: number;
  header?: boolean;
  text?: string;
}

function Cell({ on, label, onClick, row, col, tabIndex, header = false, text }: CellProps) {
  return (
    <ButtonBase
      aria-label={label}
      aria-pressed={on}
      title={label}
      onClick={onClick}
      tabIndex={tabIndex}
      data-grid-row={row}
      data-grid-col={col}
      sx={{
        width: cellWidth,
        height: cellHeight(header),
        m: '2px',
        borderRadius: 1,
        fontSize: 10,
        lineHeight: 1.1,
        color: on ? 'primary.contrastText' : 'text.secondary',
        bgcolor: on ? 'primary.main' : header ? 'transparent' : 'action.hover',
        '&:hover': { outline: 1, outlineColor: 'primary.main' },
        '&:focus-visible': { outline: 3, outlineColor: 'warning.main', outlineOffset: 1 },
      }}
    >
      {text}
    </ButtonBase>
  );
}

/** A grid's scrolling box and the grid itself, with its keyboard handling. */
function GridBox({
  label,
  gridProps,
  children,
}: {
  label: string;
  gridProps: ReturnType<typeof useGridKeys>['gridProps'];
  children: ReactNode;
}) {
  return (
    <Box sx={{ overflowX: 'auto', maxWidth: '100%' }}>
      <Box role="grid" aria-label={label} sx={{ display: 'inline-block', minWidth: 'max-content' }} {...gridProps}>
        {children}
      </Box>
    </Box>
  );
}

const rowSx = { display: 'flex', alignItems: 'center' } as const;

/** Rows: 0 the hour headings, 1–7 the days; columns: 0 the day names, 1–24 the hours. */
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
  const { gridProps, tabIndexOf } = useGridKeys(DAYS.length + 1, HOURS.length + 1, { row: 1, col: 1 });
  return (
    <GridBox label={translate('rules.editor.schedule')} gridProps={gridProps}>
      <Box role="row" sx={rowSx}>
        <Box role="columnheader" sx={{ width: DAY_COLUMN }}>
          <Box component="span" sx={visuallyHidden}>
            {translate('rules.editor.day')}
          </Box>
        </Box>
        {HOURS.map((hour) => (
          <Box key={hour} role="columnheader">
            <Cell
              header
              row={0}
              col={hour + 1}
              tabIndex={tabIndexOf(0, hour + 1)}
              on={isHourOnEveryDay(schedule, hour)}
              text={hourLabel(hour)}
              label={translate('rules.editor.whole_hour', { hour: hourLabel(hour) })}
              onClick={() => onToggleHour(hour)}
            />
          </Box>
        ))}
      </Box>
      {DAYS.map((day, d) => (
        <Box key={day} role="row" sx={rowSx}>
          <Box role="rowheader">
            <ButtonBase
              aria-label={translate('rules.editor.whole_day', { day })}
              aria-pressed={isDayFull(schedule, d)}
              onClick={() => onToggleDay(d)}
              tabIndex={tabIndexOf(d + 1, 0)}
              data-grid-row={d + 1}
              data-grid-col={0}
              sx={{
                width: DAY_COLUMN - 4,
                mr: '4px',
                justifyContent: 'flex-start',
                px: 1,
                borderRadius: 1,
                height: cellHeight(false),
                '&:hover': { bgcolor: 'action.hover' },
                '&:focus-visible': { outline: 3, outlineColor: 'warning.main' },
              }}
            >
              <Typography variant="body2">{day}</Typography>
            </ButtonBase>
          </Box>
          {HOURS.map((hour) => (
            <Box key={hour} role="gridcell">
              <Cell
                row={d + 1}
                col={hour + 1}
                tabIndex={tabIndexOf(d + 1, hour + 1)}
                on={Boolean(schedule[d]?.[hour])}
                label={translate('rules.editor.cell', { day, hour: hourLabel(hour) })}
                onClick={() => onToggleCell(d, hour)}
              />
            </Box>
          ))}
        </Box>
      ))}
    </GridBox>
  );
}

const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

export function AlertScheduleRow({ schedule, onToggle }: { schedule: DaySchedule; onToggle: (hour: number) => void }) {
  const translate = useTranslate();
  const { gridProps, tabIndexOf } = useGridKeys(1, HOURS.length, { row: 0, col: 0 });
  return (
    <GridBox label={translate('rules.editor.alert_schedule')} gridProps={gridProps}>
      <Box role="row" sx={{ ...rowSx, pl: `${DAY_COLUMN}px` }}>
        {HOURS.map((hour) => (
          <Typography
            key={hour}
            role="columnheader"
            variant="caption"
            color="text.secondary"
            sx={{ fontSize: 10, lineHeight: 1.1, width: cellWidth, mx: '2px', textAlign: 'center' }}
          >
            {hourLabel(hour)}
          </Typography>
        ))}
      </Box>
      <Box role="row" sx={{ ...rowSx, pl: `${DAY_COLUMN}px` }}>
        {HOURS.map((hour) => (
          <Box key={hour} role="gridcell">
            <Cell
              row={0}
              col={hour}
              tabIndex={tabIndexOf(0, hour)}
              on={Boolean(schedule[hour])}
              label={translate('rules.editor.alert_cell', { hour: hourLabel(hour) })}
              onClick={() => onToggle(hour)}
            />
          </Box>
        ))}
      </Box>
    </GridBox>
  );
}
