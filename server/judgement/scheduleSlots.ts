/**
 * Schedule math: which hour slots of a rule are due at an instant, in the rule's time zone.
 *
 * A slot is identified by the instant its local hour starts. Daylight-saving changes:
 * - a skipped hour (02:00 on a spring-forward night) runs at the first instant after the gap
 *   (03:00); if 03:00 is scheduled too, both hours are the same slot and run once;
 * - a repeated hour (01:00 on a fall-back night) runs once, at its first occurrence.
 * Only slots of the current local day are ever due: a process that was down catches up on the
 * missed hours of today, never on yesterday's.
 */
import { DateTime } from 'luxon';

/** 7 days (Sunday first) × 24 hours. */
export type WeekSchedule = readonly (readonly boolean[])[];
/** 24 hours, every day. */
export type DaySchedule = readonly boolean[];

export interface Slot {
  /** When the slot's local hour starts (the slot's identity). */
  instant: Date;
  /** The scheduled local hour, 0–23. */
  hour: number;
  /** The local date, yyyy-MM-dd. */
  date: string;
}

/** Any DST shift in the tz database is at most this long (most are 60 min, Lord Howe 30). */
const SHIFTS_MINUTES = [180, 120, 60, 30];

export function validZone(zone: string | null | undefined): string {
  return zone && DateTime.now().setZone(zone).isValid ? zone : 'UTC';
}

/** Sunday = 0 … Saturday = 6 (luxon counts Monday = 1 … Sunday = 7). */
export function sundayFirstWeekday(local: DateTime): number {
  return local.weekday % 7;
}

/** The instant a local hour of a local date starts, with the DST rules above. */
export function slotInstant(date: { year: number; month: number; day: number }, hour: number, zone: string): DateTime {
  const guess = DateTime.fromObject({ ...date, hour }, { zone });
  if (guess.hour !== hour) return guess; // skipped hour: luxon moved it past the gap
  for (const minutes of SHIFTS_MINUTES) {
    const earlier = guess.minus({ minutes });
    if (earlier.day === guess.day && earlier.hour === hour && earlier.minute === 0) return earlier;
  }
  return guess;
}

/** The scan asks the same (zone, date, hour) for thousands of rules: compute each once. */
const instantCache = new Map<string, DateTime>();

function cachedSlotInstant(date: { year: number; month: number; day: number }, hour: number, zone: string): DateTime {
  const key = `${zone}|${date.year}-${date.month}-${date.day}|${hour}`;
  let instant = instantCache.get(key);
  if (!instant) {
    if (instantCache.size > 20_000) instantCache.clear();
    instant = slotInstant(date, hour, zone);
    instantCache.set(key, instant);
  }
  return instant;
}

function slotsOfDay(local: DateTime, hours: DaySchedule | undefined, zone: string): Slot[] {
  const slots: Slot[] = [];
  const seen = new Set<number>();
  const date = { year: local.year, month: local.month, day: local.day };
  for (let hour = 0; hour < 24; hour += 1) {
    if (hours?.[hour] !== true) continue;
    const instant = cachedSlotInstant(date, hour, zone);
    if (seen.has(instant.toMillis())) continue;
    seen.add(instant.toMillis());
    slots.push({ instant: instant.toJSDate(), hour, date: local.toISODate()! });
  }
  return slots;
}

/** Today's (local) slots of a weekly schedule whose instant has come, oldest first. */
export function dueRunSlots(schedule: WeekSchedule, zone: string, now: Date): Slot[] {
  const tz = validZone(zone);
  const local = DateTime.fromJSDate(now, { zone: tz });
  return slotsOfDay(local, schedule[sundayFirstWeekday(local)], tz).filter((s) => s.instant <= now);
}

/** Today's (local) alert slots whose instant has come, oldest first. */
export function dueAlertSlots(hours: DaySchedule, zone: string, now: Date): Slot[] {
  const tz = validZone(zone);
  return slotsOfDay(DateTime.fromJSDate(now, { zone: tz }), hours, tz).filter((s) => s.instant <= now);
}

/** A slot counts as missed (caught up, not on time) once its hour is over. */
export function isLate(slot: Slot, now: Date): boolean {
  return now.getTime() - slot.instant.getTime() >= 60 * 60 * 1000;
}

/** "2:00 AM" in the slot's zone, for log lines and reasons. */
export function slotLabel(slot: { instant: Date }, zone: string): string {
  return DateTime.fromJSDate(slot.instant, { zone: validZone(zone) }).toFormat('h:mm a');
}
