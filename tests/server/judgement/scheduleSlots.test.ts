import { describe, expect, it } from 'vitest';
import {
  dueAlertSlots,
  dueRunSlots,
  isLate,
  slotLabel,
  type WeekSchedule,
} from '../../../server/judgement/scheduleSlots';

const SUNDAY = 0;
const MONDAY = 1;

function week(on: [day: number, hour: number][]): WeekSchedule {
  const grid = Array.from({ length: 7 }, () => Array<boolean>(24).fill(false));
  for (const [day, hour] of on) grid[day]![hour] = true;
  return grid;
}

function hours(on: number[]): boolean[] {
  return Array.from({ length: 24 }, (_, h) => on.includes(h));
}

const due = (schedule: WeekSchedule, zone: string, now: string) =>
  dueRunSlots(schedule, zone, new Date(now)).map((s) => s.instant.toISOString());

describe('run slots in a time zone', () => {
  // 2024-01-15 is a Monday.
  it('is not due before its hour, due from its first second until the end of the local day', () => {
    const schedule = week([[MONDAY, 7]]);
    expect(due(schedule, 'UTC', '2024-01-15T06:59:59Z')).toEqual([]);
    expect(due(schedule, 'UTC', '2024-01-15T07:00:00Z')).toEqual(['2024-01-15T07:00:00.000Z']);
    expect(due(schedule, 'UTC', '2024-01-15T23:59:59Z')).toEqual(['2024-01-15T07:00:00.000Z']);
  });

  it('never catches up on a previous day', () => {
    expect(due(week([[MONDAY, 7]]), 'UTC', '2024-01-16T00:30:00Z')).toEqual([]);
  });

  it('lists every passed slot of today, oldest first, for catching up', () => {
    const schedule = week([
      [MONDAY, 2],
      [MONDAY, 7],
      [MONDAY, 12],
      [MONDAY, 17],
    ]);
    expect(due(schedule, 'America/New_York', '2024-01-15T18:30:00Z')).toEqual([
      '2024-01-15T07:00:00.000Z', // 2 AM EST
      '2024-01-15T12:00:00.000Z', // 7 AM EST
      '2024-01-15T17:00:00.000Z', // 12 PM EST
    ]);
  });

  it('uses the weekday of the rule’s zone, not the server’s', () => {
    // Monday 02:00 UTC is still Sunday 21:00 in New York and already Monday 15:00 in Auckland.
    const sundayNine = week([[SUNDAY, 21]]);
    expect(due(sundayNine, 'America/New_York', '2024-01-15T02:00:00Z')).toEqual(['2024-01-15T02:00:00.000Z']);
    expect(due(sundayNine, 'UTC', '2024-01-15T02:00:00Z')).toEqual([]);
    expect(due(week([[MONDAY, 15]]), 'Pacific/Auckland', '2024-01-15T02:00:00Z')).toEqual(['2024-01-15T02:00:00.000Z']);
  });

  it('handles zones with half-hour offsets', () => {
    expect(due(week([[MONDAY, 7]]), 'Asia/Kolkata', '2024-01-15T01:30:00Z')).toEqual(['2024-01-15T01:30:00.000Z']);
    expect(due(week([[MONDAY, 7]]), 'Asia/Kolkata', '2024-01-15T01:29:59Z')).toEqual([]);
  });

  it('treats an unknown zone as UTC', () => {
    expect(due(week([[MONDAY, 7]]), 'Mars/Olympus_Mons', '2024-01-15T07:00:00Z')).toEqual(['2024-01-15T07:00:00.000Z']);
  });
});

describe('daylight-saving changes', () => {
  // New York springs forward on Sunday 2024-03-10: 02:00 EST → 03:00 EDT (07:00 UTC).
  it('runs a skipped hour at the first instant after the gap', () => {
    const schedule = week([[SUNDAY, 2]]);
    expect(due(schedule, 'America/New_York', '2024-03-10T06:59:59Z')).toEqual([]);
    expect(due(schedule, 'America/New_York', '2024-03-10T07:00:00Z')).toEqual(['2024-03-10T07:00:00.000Z']);
  });

  it('runs once when both the skipped hour and the next one are scheduled', () => {
    expect(
      due(
        week([
          [SUNDAY, 2],
          [SUNDAY, 3],
        ]),
        'America/New_York',
        '2024-03-10T09:00:00Z',
      ),
    ).toEqual(['2024-03-10T07:00:00.000Z']);
  });

  it('keeps the hours after a spring-forward change at their new offset', () => {
    expect(due(week([[SUNDAY, 7]]), 'America/New_York', '2024-03-10T11:00:00Z')).toEqual(['2024-03-10T11:00:00.000Z']);
  });

  // New York falls back on Sunday 2024-11-03: 01:00–02:00 happens twice (05:00 and 06:00 UTC).
  it('runs a repeated hour once, at its first occurrence', () => {
    const schedule = week([[SUNDAY, 1]]);
    expect(due(schedule, 'America/New_York', '2024-11-03T04:59:59Z')).toEqual([]);
    expect(due(schedule, 'America/New_York', '2024-11-03T05:00:00Z')).toEqual(['2024-11-03T05:00:00.000Z']);
    expect(due(schedule, 'America/New_York', '2024-11-03T06:30:00Z')).toEqual(['2024-11-03T05:00:00.000Z']);
  });

  it('runs the hour after a repeated hour at its standard-time instant', () => {
    expect(due(week([[SUNDAY, 2]]), 'America/New_York', '2024-11-03T07:00:00Z')).toEqual(['2024-11-03T07:00:00.000Z']);
  });

  it('handles Europe’s change at 01:00 UTC and Lord Howe’s half-hour change', () => {
    // London 2024-03-31: 01:00 GMT → 02:00 BST, so 01:00 local never happens.
    expect(due(week([[SUNDAY, 1]]), 'Europe/London', '2024-03-31T01:00:00Z')).toEqual(['2024-03-31T01:00:00.000Z']);
    // Lord Howe 2024-10-06: 02:00 → 02:30; the 02:00 slot runs at 02:30 local (15:30 UTC the day before).
    expect(due(week([[SUNDAY, 2]]), 'Australia/Lord_Howe', '2024-10-05T15:30:00Z')).toEqual([
      '2024-10-05T15:30:00.000Z',
    ]);
  });
});

describe('alert slots', () => {
  it('are the same hours every day, in the rule’s zone', () => {
    const alert = hours([7]);
    const at = (now: string) =>
      dueAlertSlots(alert, 'America/Chicago', new Date(now)).map((s) => s.instant.toISOString());
    expect(at('2024-01-15T12:59:00Z')).toEqual([]);
    expect(at('2024-01-15T13:00:00Z')).toEqual(['2024-01-15T13:00:00.000Z']);
    expect(at('2024-01-20T13:05:00Z')).toEqual(['2024-01-20T13:00:00.000Z']);
    expect(at('2024-07-20T12:05:00Z')).toEqual(['2024-07-20T12:00:00.000Z']); // summer time: CDT
  });

  it('carry the local hour and date', () => {
    const [slot] = dueAlertSlots(hours([23]), 'Asia/Tokyo', new Date('2024-01-15T14:10:00Z'));
    expect(slot).toEqual({ instant: new Date('2024-01-15T14:00:00Z'), hour: 23, date: '2024-01-15' });
    expect(slotLabel(slot!, 'Asia/Tokyo')).toBe('11:00 PM');
  });
});

describe('late slots', () => {
  it('count as missed once their hour is over', () => {
    const slot = { instant: new Date('2024-01-15T07:00:00Z'), hour: 7, date: '2024-01-15' };
    expect(isLate(slot, new Date('2024-01-15T07:59:59Z'))).toBe(false);
    expect(isLate(slot, new Date('2024-01-15T08:00:00Z'))).toBe(true);
  });
});
