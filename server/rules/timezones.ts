/** IANA time zones for the rule editor's select (`GET /api/rule/get_timezones/`), via luxon. */
import { DateTime, IANAZone } from 'luxon';

export interface TimezoneOption {
  title: string;
  value: string;
}

export const isValidTimezone = (zone: unknown): zone is string =>
  typeof zone === 'string' && zone !== '' && IANAZone.isValidZone(zone);

const zoneNames = (): string[] => [...new Set(['UTC', ...Intl.supportedValuesOf('timeZone')])];

/** '(UTC-05:00) America/New_York', sorted west to east by today's offset, then by name. */
export function timezoneOptions(now: DateTime = DateTime.utc()): TimezoneOption[] {
  return zoneNames()
    .map((value) => ({ value, offset: now.setZone(value).offset }))
    .sort((a, b) => a.offset - b.offset || a.value.localeCompare(b.value))
    .map(({ value }) => ({ value, title: `(UTC${now.setZone(value).toFormat('ZZ')}) ${value}` }));
}
