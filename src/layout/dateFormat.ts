/**
 * The app's one way of writing dates and times (docs/screens.md: US dates, 12-hour times): an
 * instant as '3/14/2026, 6:30 PM', a day as '3/14/2026', a time of day as '6:30 PM', in a time zone
 * when given (an ad account's, a rule's), else the browser's. 'N/A' for anything missing or not a
 * date. Every screen writes its dates through these. Pure.
 */
export const NO_DATE = 'N/A';

const DAY: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'numeric', day: 'numeric' };
const TIME: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit', hour12: true };

const formats = new Map<string, Intl.DateTimeFormat>();

/** A formatter per options and zone, made once; an unknown zone falls back to the browser's. */
function formatter(options: Intl.DateTimeFormatOptions, timeZone?: string): Intl.DateTimeFormat {
  const key = `${JSON.stringify(options)}|${timeZone ?? ''}`;
  let made = formats.get(key);
  if (!made) {
    try {
      made = new Intl.DateTimeFormat('en-US', { ...options, timeZone });
    } catch {
      made = new Intl.DateTimeFormat('en-US', options);
    }
    formats.set(key, made);
  }
  return made;
}

function instant(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** An instant → '3/14/2026, 6:30 PM' in `timeZone`. */
export function formatDateTime(value: string | number | Date | null | undefined, timeZone?: string): string {
  const date = instant(value);
  return date ? formatter({ ...DAY, ...TIME }, timeZone).format(date) : NO_DATE;
}

/** An instant's calendar day in `timeZone`: '3/14/2026'. */
export function formatDayAt(value: string | number | Date | null | undefined, timeZone?: string): string {
  const date = instant(value);
  return date ? formatter(DAY, timeZone).format(date) : NO_DATE;
}

/** An instant's time of day in `timeZone`: '6:30 PM'. */
export function formatTimeAt(value: string | number | Date | null | undefined, timeZone?: string): string {
  const date = instant(value);
  return date ? formatter(TIME, timeZone).format(date) : NO_DATE;
}

/** A calendar day ('2026-03-14', or an instant's ISO text, read as written) → '3/14/2026': no time zone shifts it. */
export function formatDay(day: string | null | undefined): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(day ?? '');
  if (!match) return NO_DATE;
  return `${Number(match[2])}/${Number(match[3])}/${match[1]}`;
}

/** A calendar day as a chart's axis writes it: '2026-03-14' → '3/14'. */
export function formatDayShort(day: string): string {
  const match = /^\d{4}-(\d{2})-(\d{2})/.exec(day);
  return match ? `${Number(match[1])}/${Number(match[2])}` : day;
}
