/**
 * Which webinar date a campaign advertises, read from its name, and the Demio event date it
 * matches. The agency writes `EDM - RP-W - 03/14/2026 6:30 PM - Harbor Wealth`: a date (US, short
 * US or ISO) and a time in the advertiser's local time. A name may carry two dates (`03/14/2026 &
 * 03/21/2026 6:30 PM`, or each with its own time); a time written once holds for every date. The
 * time is read in the zone the caller gives (the rule's, else the ad account's).
 *
 * Matching: a date with a time matches the Demio date starting nearest to it within a tolerance
 * (30 minutes by default: an event scheduled 6:45 for a 6:30 ad is the same evening, one at 8 PM
 * is not); a date without a time matches every Demio date on that local day. When some of the
 * account's events name the campaign's topic, only their dates are candidates (two webinars the same
 * evening are told apart by their names). A name without a date
 * advertises none: it matches the Demio dates whose event names the campaign's topic and that start
 * while the campaign runs or in the 30 days after it stops (any time after its start when it has no end).
 */
import { DateTime } from 'luxon';
import { parseCampaignName, topicName } from '../../shared/campaignName';

export interface AdvertisedDate {
  /** YYYY-MM-DD */
  date: string;
  /** HH:MM, 24-hour; null when the name gives no time. */
  time: string | null;
  /** The moment, when the time is known (ms). */
  startsAt: number | null;
}

/** A Demio event date as the matcher needs it (the events list and event info give these). */
export interface EventDateRef {
  eventId: number;
  eventName: string;
  dateId: number;
  /** Unix seconds, as Demio sends it. */
  timestamp: number;
}

export interface EventMatch {
  /** Every date the name advertises, each with the Demio dates it matches (none, one, or a day's). */
  advertised: { date: AdvertisedDate; matches: EventDateRef[] }[];
  /** For a name without a date: the dates of the topic's events during and after the campaign's run. */
  undated: EventDateRef[];
}

const US_DATES = /(?<![\d/.])(\d{1,2})[/.](\d{1,2})[/.](\d{4}|\d{2})(?![\d/.])/g;
const ISO_DATES = /(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)/g;
const TWELVE_HOURS = /(?<![\d:])(\d{1,2})(?::([0-5]\d))?\s*([AP])\.?M\.?(?![A-Za-z])/gi;
const TWENTY_FOUR_HOURS = /(?<![\d:/.-])([01]?\d|2[0-3]):([0-5]\d)(?![\d:])/g;

const pad = (n: number) => String(n).padStart(2, '0');
const DEFAULT_TOLERANCE_MINUTES = 30;
const UNDATED_HORIZON_DAYS = 30;

function validDate(year: number, month: number, day: number): string | null {
  const date = DateTime.fromObject({ year, month, day }, { zone: 'UTC' });
  return date.isValid ? date.toISODate() : null;
}

/** Dates and times in the order they are written, each with its position in the name. */
function datesIn(name: string): { at: number; value: string }[] {
  const found: { at: number; value: string | null }[] = [];
  for (const m of name.matchAll(ISO_DATES))
    found.push({ at: m.index, value: validDate(Number(m[1]), Number(m[2]), Number(m[3])) });
  for (const m of name.matchAll(US_DATES)) {
    const year = m[3]!.length === 2 ? 2000 + Number(m[3]) : Number(m[3]);
    found.push({ at: m.index, value: validDate(year, Number(m[1]), Number(m[2])) });
  }
  return found.filter((d): d is { at: number; value: string } => d.value !== null).sort((a, b) => a.at - b.at);
}

function timesIn(name: string): { at: number; value: string }[] {
  const blanked = name.replace(ISO_DATES, (d) => ' '.repeat(d.length)).replace(US_DATES, (d) => ' '.repeat(d.length));
  const found: { at: number; value: string }[] = [];
  for (const m of blanked.matchAll(TWELVE_HOURS)) {
    const hour = Number(m[1]);
    if (hour < 1 || hour > 12) continue;
    const pm = m[3]!.toUpperCase() === 'P';
    found.push({ at: m.index, value: `${pad((hour % 12) + (pm ? 12 : 0))}:${pad(Number(m[2] ?? '0'))}` });
  }
  const twelve = blanked.replace(TWELVE_HOURS, (t) => ' '.repeat(t.length));
  for (const m of twelve.matchAll(TWENTY_FOUR_HOURS))
    found.push({ at: m.index, value: `${pad(Number(m[1]))}:${m[2]}` });
  return found.sort((a, b) => a.at - b.at);
}

/**
 * The dates a campaign name advertises, in the order written. With as many times as dates each date
 * takes the time written after it (or its own, in order); with one time, every date takes it.
 */
export function advertisedDates(name: string, zone: string): AdvertisedDate[] {
  const dates = datesIn(name);
  const times = timesIn(name);
  return dates.map(({ value: date }, index) => {
    const time = times.length === dates.length ? times[index]!.value : times.length === 1 ? times[0]!.value : null;
    const startsAt = time === null ? null : DateTime.fromISO(`${date}T${time}`, { zone }).toMillis();
    return { date, time, startsAt };
  });
}

export interface CampaignForMatching {
  name: string;
  /** When it started and stopped delivering (ms), for names without a date. */
  startTime?: number;
  stopTime?: number;
}

export function matchEventDates(
  campaign: CampaignForMatching,
  zone: string,
  dates: readonly EventDateRef[],
  { toleranceMinutes = DEFAULT_TOLERANCE_MINUTES }: { toleranceMinutes?: number } = {},
): EventMatch {
  const advertised = advertisedDates(campaign.name, zone).map((date) => ({ date, matches: matchesOf(date) }));
  return { advertised, undated: advertised.length ? [] : undatedMatches(campaign, dates) };

  function matchesOf(date: AdvertisedDate): EventDateRef[] {
    const candidates = ofTopicFirst(campaign.name, dates);
    if (date.startsAt === null)
      return candidates.filter((d) => DateTime.fromSeconds(d.timestamp, { zone }).toISODate() === date.date);
    const distance = (d: EventDateRef) => Math.abs(d.timestamp * 1000 - date.startsAt!);
    const nearest = [...candidates].sort((a, b) => distance(a) - distance(b))[0];
    return nearest && distance(nearest) <= toleranceMinutes * 60_000 ? [nearest] : [];
  }
}

const namesTopic = (event: EventDateRef, topic: string) => event.eventName.toLowerCase().includes(topic.toLowerCase());

/**
 * The dates of the events naming the campaign's topic, when there are any: two webinars the same
 * evening are told apart by their names. Otherwise every date (the account may name its events freely).
 */
function ofTopicFirst(name: string, dates: readonly EventDateRef[]): readonly EventDateRef[] {
  const topic = topicName(parseCampaignName(name).topic);
  const ofTopic = topic ? dates.filter((d) => namesTopic(d, topic)) : [];
  return ofTopic.length ? ofTopic : dates;
}

function undatedMatches(campaign: CampaignForMatching, dates: readonly EventDateRef[]): EventDateRef[] {
  const topic = topicName(parseCampaignName(campaign.name).topic);
  if (!topic || campaign.startTime === undefined) return [];
  const until = campaign.stopTime === undefined ? Infinity : campaign.stopTime + UNDATED_HORIZON_DAYS * 86_400_000;
  return dates.filter(
    (d) => namesTopic(d, topic) && d.timestamp * 1000 >= campaign.startTime! && d.timestamp * 1000 <= until,
  );
}
