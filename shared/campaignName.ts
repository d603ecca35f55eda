/**
 * The agency's campaign naming (docs/contract.md#constants), shared by the campaign sync (server) and the Campaigns
 * screen: a name such as `EDM - EP-W - 03/14/2026 6:30 PM - Harbor Wealth` carries a topic code,
 * an event type (-W webinar, -S seminar), an event date and an event time. Parts that are absent or
 * malformed come back as null; the parser never guesses.
 */
import { TOPICS } from './constants';

export type TopicCode = (typeof TOPICS)[number]['code'];

export interface ParsedCampaignName {
  topic: TopicCode | null;
  /** true for -W (webinar), false for -S (seminar), null when the name names neither. */
  is_webinar: boolean | null;
  /** YYYY-MM-DD */
  event_date: string | null;
  /** HH:MM, 24-hour */
  event_time: string | null;
}

const TOPIC_CODES = TOPICS.map((t) => t.code) as readonly TopicCode[];
const byUpperCode = new Map(TOPIC_CODES.map((code) => [code.toUpperCase(), code]));
const codeAlternatives = TOPIC_CODES.map((code) => code.replace(/[^A-Za-z0-9]/g, '')).join('|');

/** A name token: not glued to letters or digits on either side. */
const TOPIC_WITH_TYPE = new RegExp(`(?<![A-Za-z0-9])(${codeAlternatives})-([WS])(?![A-Za-z0-9])`, 'i');
/** A bare topic code must be written exactly (upper case, 401k) to count: "pp" or "Ap" are words, not codes. */
const BARE_TOPIC = new RegExp(`(?<![A-Za-z0-9-])(${codeAlternatives})(?![A-Za-z0-9])`);
const US_DATE = /(?<![\d/.])(\d{1,2})[/.](\d{1,2})[/.](\d{4}|\d{2})(?![\d/.])/;
const ISO_DATE = /(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)/;
const TWELVE_HOUR = /(?<![\d:])(\d{1,2})(?::([0-5]\d))?\s*([AP])\.?M\.?(?![A-Za-z])/i;
const TWENTY_FOUR_HOUR = /(?<![\d:/.-])([01]?\d|2[0-3]):([0-5]\d)(?![\d:])/;

const pad = (n: number) => String(n).padStart(2, '0');

function validDate(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1) return null;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > daysInMonth) return null;
  return `${year}-${pad(month)}-${pad(day)}`;
}

function parseDate(name: string): { value: string | null; rest: string } {
  const iso = ISO_DATE.exec(name);
  if (iso) {
    return { value: validDate(Number(iso[1]), Number(iso[2]), Number(iso[3])), rest: name.replace(iso[0], ' ') };
  }
  const us = US_DATE.exec(name);
  if (us) {
    const rawYear = Number(us[3]);
    const year = us[3]!.length === 2 ? 2000 + rawYear : rawYear;
    return { value: validDate(year, Number(us[1]), Number(us[2])), rest: name.replace(us[0], ' ') };
  }
  return { value: null, rest: name };
}

function parseTime(name: string): string | null {
  const twelve = TWELVE_HOUR.exec(name);
  if (twelve) {
    const hour = Number(twelve[1]);
    if (hour < 1 || hour > 12) return null;
    const minutes = Number(twelve[2] ?? '0');
    const pm = twelve[3]!.toUpperCase() === 'P';
    return `${pad((hour % 12) + (pm ? 12 : 0))}:${pad(minutes)}`;
  }
  const twentyFour = TWENTY_FOUR_HOUR.exec(name);
  return twentyFour ? `${pad(Number(twentyFour[1]))}:${twentyFour[2]}` : null;
}

export function parseCampaignName(name: string | null | undefined): ParsedCampaignName {
  const text = name ?? '';
  let topic: TopicCode | null = null;
  let isWebinar: boolean | null = null;

  const typed = TOPIC_WITH_TYPE.exec(text);
  if (typed) {
    topic = byUpperCode.get(typed[1]!.toUpperCase()) ?? null;
    isWebinar = typed[2]!.toUpperCase() === 'W';
  } else {
    const bare = BARE_TOPIC.exec(text);
    if (bare) topic = byUpperCode.get(bare[1]!.toUpperCase()) ?? null;
  }

  const date = parseDate(text);
  return { topic, is_webinar: isWebinar, event_date: date.value, event_time: parseTime(date.rest) };
}

export function topicName(code: string | null | undefined): string | null {
  return TOPICS.find((t) => t.code === code)?.name ?? null;
}

/** '18:30' → '6:30 PM'; null/garbage → null. */
export function formatEventTime(time: string | null | undefined): string | null {
  const match = /^(\d{2}):(\d{2})/.exec(time ?? '');
  if (!match) return null;
  const hour = Number(match[1]);
  return `${hour % 12 === 0 ? 12 : hour % 12}:${match[2]} ${hour < 12 ? 'AM' : 'PM'}`;
}
