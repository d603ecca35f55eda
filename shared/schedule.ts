/**
 * The weekly schedule (7 days, Sunday first, × 24 hours, 12 AM first) and the 24-hour alert
 * schedule of a rule (docs/contract.md#entities, docs/screens.md#states-and-transitions). Pure functions: each returns a new grid.
 */
import { DAYS, DEFAULT_ALERT_HOUR, DEFAULT_SCHEDULE_HOURS, HOURS_PER_DAY } from './constants';

export type WeekSchedule = boolean[][];
export type DaySchedule = boolean[];

export const HOURS: readonly number[] = Array.from({ length: HOURS_PER_DAY }, (_, h) => h);

/** 0 → '12 AM', 13 → '1 PM'. */
export function hourLabel(hour: number): string {
  const h12 = hour % 12 === 0 ? 12 : hour % 12;
  return `${h12} ${hour < 12 ? 'AM' : 'PM'}`;
}

export const dayLabel = (day: number): string => DAYS[day] ?? String(day);

export const emptyDay = (): DaySchedule => HOURS.map(() => false);
export const emptyWeek = (): WeekSchedule => DAYS.map(() => emptyDay());

const dayWith = (hours: readonly number[]): DaySchedule => HOURS.map((h) => hours.includes(h));

/** 'Fill default' (docs/screens.md#states-and-transitions): every day at 2 AM, 7 AM, 12 PM and 5 PM. */
export const defaultWeek = (): WeekSchedule => DAYS.map(() => dayWith(DEFAULT_SCHEDULE_HOURS));

/** 'Fill default' for alerts: 7 AM only. */
export const defaultAlertDay = (): DaySchedule => dayWith([DEFAULT_ALERT_HOUR]);

export function isWeekSchedule(value: unknown): value is WeekSchedule {
  return (
    Array.isArray(value) &&
    value.length === DAYS.length &&
    value.every((day) => Array.isArray(day) && day.length === HOURS_PER_DAY && day.every((h) => typeof h === 'boolean'))
  );
}

export function isDaySchedule(value: unknown): value is DaySchedule {
  return Array.isArray(value) && value.length === HOURS_PER_DAY && value.every((h) => typeof h === 'boolean');
}

export function toggleCell(week: WeekSchedule, day: number, hour: number): WeekSchedule {
  return week.map((hours, d) => (d === day ? hours.map((on, h) => (h === hour ? !on : on)) : [...hours]));
}

/** Whole-day toggle: a full day clears, anything else fills the day. */
export function toggleDay(week: WeekSchedule, day: number): WeekSchedule {
  const full = week[day]?.every(Boolean) ?? false;
  return week.map((hours, d) => (d === day ? hours.map(() => !full) : [...hours]));
}

/** Whole-week-hour toggle (docs/screens.md#states-and-transitions): sets that hour on every day, or clears it when all days had it. */
export function toggleHourAllDays(week: WeekSchedule, hour: number): WeekSchedule {
  const everyDay = week.every((hours) => hours[hour]);
  return week.map((hours) => hours.map((on, h) => (h === hour ? !everyDay : on)));
}

export const isHourOnEveryDay = (week: WeekSchedule, hour: number): boolean => week.every((hours) => hours[hour]);
export const isDayFull = (week: WeekSchedule, day: number): boolean => week[day]?.every(Boolean) ?? false;

export function toggleAlertHour(alerts: DaySchedule, hour: number): DaySchedule {
  return alerts.map((on, h) => (h === hour ? !on : on));
}

export const hoursOn = (day: DaySchedule): number[] => HOURS.filter((h) => day[h]);

/** 'Mon 3 AM, Tue 7 AM' — the cells switched on in `after` but not in `before` (audit texts). */
export function addedCells(before: WeekSchedule, after: WeekSchedule): string[] {
  const cells: string[] = [];
  for (const [d, hours] of after.entries()) {
    for (const [h, on] of hours.entries()) {
      if (on && !before[d]?.[h]) cells.push(`${dayLabel(d).slice(0, 3)} ${hourLabel(h)}`);
    }
  }
  return cells;
}
