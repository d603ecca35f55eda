/** How the simulated agency writes campaign names (read back by shared/campaignName.ts). */
import type { DateTime } from 'luxon';
import type { Random } from './random';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** The agency writes dates three ways; the name parser reads all of them. */
export function campaignDate(event: DateTime, random: Random): string {
  const style = random.next();
  if (style < 0.6) return event.toFormat('MM/dd/yyyy', { locale: 'en-US' });
  if (style < 0.85) return event.toFormat('M/d/yy');
  return event.toFormat('yyyy-MM-dd');
}

export function campaignTime(event: DateTime): string {
  return event.toFormat(event.minute === 0 ? 'h a' : 'h:mm a', { locale: 'en-US' });
}
