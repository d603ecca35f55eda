/**
 * The rule form's Schedule card (the week grid, Fill default and the time zone) and its Alert
 * schedule card (the alert hours, then what the form adds beneath), shared by the rule editor and
 * the template editor. While `disabled`, the grids' clicks change nothing.
 */
import { Autocomplete, Button, TextField } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import {
  toggleAlertHour,
  toggleCell,
  toggleDay,
  toggleHourAllDays,
  type DaySchedule,
  type WeekSchedule,
} from '../../../shared/schedule';
import type { TimezoneOption } from '../../providers/ruleMethods';
import { AlertScheduleRow, WeekScheduleGrid } from './ScheduleGrid';
import { Section } from './Section';

export function ScheduleSection({
  schedule,
  timezone,
  timezones,
  disabled,
  onFillDefault,
  onScheduleChange,
  onTimezoneChange,
}: {
  schedule: WeekSchedule;
  timezone: string;
  timezones: TimezoneOption[];
  disabled?: boolean;
  onFillDefault: () => void;
  onScheduleChange: (schedule: WeekSchedule) => void;
  onTimezoneChange: (timezone: string) => void;
}) {
  const translate = useTranslate();
  const selected = timezones.find((z) => z.value === timezone) ?? { value: timezone, title: timezone };
  return (
    <Section
      title={translate('rules.editor.schedule')}
      help={translate('rules.editor.schedule_help')}
      action={
        <Button variant="outlined" disabled={disabled} onClick={onFillDefault}>
          {translate('rules.editor.fill_default')}
        </Button>
      }
    >
      <WeekScheduleGrid
        schedule={schedule}
        onToggleCell={(day, hour) => !disabled && onScheduleChange(toggleCell(schedule, day, hour))}
        onToggleDay={(day) => !disabled && onScheduleChange(toggleDay(schedule, day))}
        onToggleHour={(hour) => !disabled && onScheduleChange(toggleHourAllDays(schedule, hour))}
      />
      <Autocomplete
        options={timezones}
        value={selected}
        disableClearable
        disabled={disabled}
        onChange={(_event, option) => onTimezoneChange(option.value)}
        getOptionLabel={(option) => option.title}
        isOptionEqualToValue={(option, value) => option.value === value.value}
        renderInput={(params) => <TextField {...params} size="small" label={translate('rules.editor.timezone')} />}
        sx={{ mt: 2, maxWidth: 420 }}
      />
    </Section>
  );
}

export function AlertScheduleSection({
  schedule,
  disabled,
  onChange,
  children,
}: {
  schedule: DaySchedule;
  disabled?: boolean;
  onChange: (schedule: DaySchedule) => void;
  children?: ReactNode;
}) {
  const translate = useTranslate();
  return (
    <Section title={translate('rules.editor.alert_schedule')} help={translate('rules.editor.alert_help')}>
      <AlertScheduleRow
        schedule={schedule}
        onToggle={(hour) => !disabled && onChange(toggleAlertHour(schedule, hour))}
      />
      {children}
    </Section>
  );
}
