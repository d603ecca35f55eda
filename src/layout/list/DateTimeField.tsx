/**
 * Dates with times in lists: the day over the time, neither broken across lines (a long
 * '11/22/2026, 1:04:23 AM' used to wrap anywhere, leaving 'AM' alone on a line).
 */
import { Typography } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { formatDateTime, NO_DATE } from '../dateFormat';

/** '3/14/2026, 6:30 PM' as the day over the time; anything without a time as one line. */
export function StackedDateTime({ value, muted = false }: { value: string; muted?: boolean }) {
  const [day, time] = value.split(', ');
  const color = muted ? 'text.secondary' : undefined;
  if (!time) {
    return (
      <Typography variant="body2" component="span" color={color} sx={{ whiteSpace: 'nowrap' }}>
        {value}
      </Typography>
    );
  }
  return (
    <Typography
      variant="body2"
      component="span"
      color={color}
      sx={{ whiteSpace: 'nowrap', display: 'block' }}
      aria-label={value}
    >
      {day},
      <Typography variant="caption" component="span" color="text.secondary" sx={{ display: 'block' }}>
        {time}
      </Typography>
    </Typography>
  );
}

/** A record's timestamp (ISO text) as the app writes instants ('3/14/2026, 6:30 PM'), for the Log and Activity lists. */
export function DateTimeField({ source }: { source: string; label?: string; sortBy?: string; sortable?: boolean }) {
  const value = useRecordContext()?.[source];
  if (!value) return null;
  const text = formatDateTime(String(value));
  return text === NO_DATE ? null : <StackedDateTime value={text} />;
}
