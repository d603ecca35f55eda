import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { advertisedDates, matchEventDates, type EventDateRef } from '../../../server/webinar/eventMatching';

const NY = 'America/New_York';
const at = (iso: string, zone = NY) => DateTime.fromISO(iso, { zone }).toMillis();
const date = (dateId: number, iso: string, eventName = 'Retirement Planning Webinar', zone = NY): EventDateRef => ({
  eventId: 1,
  eventName,
  dateId,
  timestamp: at(iso, zone) / 1000,
});

describe('advertisedDates', () => {
  it('reads the date and local time the agency writes, in the zone given', () => {
    expect(advertisedDates('EDM - RP-W - 03/14/2026 6:30 PM - Harbor Wealth', NY)).toEqual([
      { date: '2026-03-14', time: '18:30', startsAt: Date.parse('2026-03-14T22:30:00Z') },
    ]);
    expect(advertisedDates('EDM - RP-W - 03/14/2026 6:30 PM - Harbor Wealth', 'America/Chicago')[0]!.startsAt).toBe(
      Date.parse('2026-03-14T23:30:00Z'),
    );
  });

  it('reads every style of date the agency uses', () => {
    expect(advertisedDates('EDM - SS-W - 3/9/26 10 AM - Summit', NY)[0]).toMatchObject({
      date: '2026-03-09',
      time: '10:00',
    });
    expect(advertisedDates('EDM - SS-W - 2026-03-09 17:30 - Summit', NY)[0]).toMatchObject({
      date: '2026-03-09',
      time: '17:30',
    });
  });

  it('keeps a date without a time as a day', () => {
    expect(advertisedDates('EDM - TIR-W - 04/02/2026 - Canyon', NY)).toEqual([
      { date: '2026-04-02', time: null, startsAt: null },
    ]);
  });

  it('finds no date in an evergreen name, and none in an impossible one', () => {
    expect(advertisedDates('EDM - RP Evergreen Guide - Harbor Wealth', NY)).toEqual([]);
    expect(advertisedDates('EDM - RP-W - 02/30/2026 6 PM', NY)).toEqual([]);
  });

  it('reads two dates sharing one time, or each with its own', () => {
    expect(
      advertisedDates('EDM - RP-W - 03/14/2026 & 03/21/2026 6:30 PM - Harbor', NY).map((d) => [d.date, d.time]),
    ).toEqual([
      ['2026-03-14', '18:30'],
      ['2026-03-21', '18:30'],
    ]);
    expect(
      advertisedDates('EDM - MED-W - 03/14/2026 10 AM / 03/15/2026 6 PM - Harbor', NY).map((d) => [d.date, d.time]),
    ).toEqual([
      ['2026-03-14', '10:00'],
      ['2026-03-15', '18:00'],
    ]);
  });

  it('reads the time across a daylight-saving change in the zone', () => {
    // 8 March 2026: New York moves to EDT; 6:30 PM is 22:30 UTC after, 23:30 UTC before.
    expect(advertisedDates('RP-W 03/07/2026 6:30 PM', NY)[0]!.startsAt).toBe(Date.parse('2026-03-07T23:30:00Z'));
    expect(advertisedDates('RP-W 03/09/2026 6:30 PM', NY)[0]!.startsAt).toBe(Date.parse('2026-03-09T22:30:00Z'));
  });
});

describe('matchEventDates', () => {
  const dates = [
    date(10, '2026-03-14T18:30'),
    date(11, '2026-03-14T20:00'),
    date(12, '2026-03-21T18:45'),
    date(13, '2026-03-28T11:00'),
    date(14, '2026-03-20T18:30', 'Medicare Webinar'),
  ];

  it('matches the Demio date starting at the advertised moment', () => {
    const match = matchEventDates({ name: 'EDM - RP-W - 03/14/2026 6:30 PM - Harbor' }, NY, dates);
    expect(match.advertised.map((a) => a.matches.map((d) => d.dateId))).toEqual([[10]]);
  });

  it('matches within the tolerance only, nearest first', () => {
    const late = matchEventDates({ name: 'RP-W 03/21/2026 6:30 PM' }, NY, dates);
    expect(late.advertised[0]!.matches.map((d) => d.dateId)).toEqual([12]);
    const none = matchEventDates({ name: 'RP-W 03/21/2026 6:30 PM' }, NY, dates, { toleranceMinutes: 10 });
    expect(none.advertised[0]!.matches).toEqual([]);
  });

  it('reads the name in the zone given: the same name in another zone is another moment', () => {
    const chicago = matchEventDates({ name: 'RP-W 03/14/2026 5:30 PM' }, 'America/Chicago', dates);
    expect(chicago.advertised[0]!.matches.map((d) => d.dateId)).toEqual([10]);
    const newYork = matchEventDates({ name: 'RP-W 03/14/2026 5:30 PM' }, NY, dates);
    expect(newYork.advertised[0]!.matches).toEqual([]);
  });

  it('tells two webinars the same evening apart by the topic their events name', () => {
    const sameEvening = [...dates, date(15, '2026-03-14T18:30', 'Medicare Webinar')];
    const medicare = matchEventDates({ name: 'EDM - MED-W - 03/14/2026 6:30 PM - Harbor' }, NY, sameEvening);
    expect(medicare.advertised[0]!.matches.map((d) => d.dateId)).toEqual([15]);
    const retirement = matchEventDates({ name: 'EDM - RP-W - 03/14/2026 6:30 PM - Harbor' }, NY, sameEvening);
    expect(retirement.advertised[0]!.matches.map((d) => d.dateId)).toEqual([10]);
    // No event names the topic: the nearest date at the advertised moment, whatever its event.
    const taxes = matchEventDates({ name: 'EDM - TIR-W - 03/20/2026 6:30 PM - Harbor' }, NY, sameEvening);
    expect(taxes.advertised[0]!.matches.map((d) => d.dateId)).toEqual([14]);
  });

  it('matches every date on the day when the name gives no time', () => {
    const match = matchEventDates({ name: 'RP-W 03/14/2026 - Harbor' }, NY, dates);
    expect(match.advertised[0]!.matches.map((d) => d.dateId)).toEqual([10, 11]);
  });

  it('matches each of two advertised dates', () => {
    const match = matchEventDates({ name: 'RP-W 03/14/2026 & 03/21/2026 6:30 PM' }, NY, dates);
    expect(match.advertised.map((a) => a.matches.map((d) => d.dateId))).toEqual([[10], [12]]);
    expect(match.undated).toEqual([]);
  });

  it('matches a name without a date to its topic’s dates from its start to 30 days after it stops', () => {
    const campaign = {
      name: 'EDM - RP Evergreen Guide - Harbor',
      startTime: at('2026-03-15T00:00'),
      stopTime: at('2026-04-01T00:00'),
    };
    const match = matchEventDates(campaign, NY, dates);
    expect(match.advertised).toEqual([]);
    expect(match.undated.map((d) => d.dateId)).toEqual([12, 13]);
    const ended = { ...campaign, startTime: at('2026-01-05T00:00'), stopTime: at('2026-02-01T00:00') };
    const short = matchEventDates(ended, NY, dates);
    expect(short.undated).toEqual([]);
    expect(matchEventDates({ name: 'Brand Awareness - Harbor', startTime: 0 }, NY, dates).undated).toEqual([]);
  });
});
