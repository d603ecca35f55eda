/**
 * What a list shows when it has no rows: why, in words. With a search or a filter in force it
 * says nothing matched them (and how to widen the view); otherwise the list's own message. A failed
 * load shows nothing here (ListErrors explains it).
 */
import { Box, Typography } from '@mui/material';
import { useListContext, useTranslate } from 'react-admin';

export function ListEmpty({
  message,
  messageArgs,
  detail,
  filtered = false,
}: {
  message: string;
  messageArgs?: Record<string, unknown>;
  /** What the list's records are (shown under the message when nothing narrows the list). */
  detail?: string;
  filtered?: boolean;
}) {
  const translate = useTranslate();
  const { filterValues, error } = useListContext();
  if (error) return null; // the error list says what went wrong; 'nothing here' would be untrue
  const narrowed = filtered || Object.keys(filterValues ?? {}).length > 0;
  return (
    <Box sx={{ py: 5, px: 2, textAlign: 'center' }} role="status">
      <Typography color="text.secondary">
        {narrowed ? translate('app.list.no_match') : translate(message, messageArgs)}
      </Typography>
      {narrowed || detail ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, maxWidth: 640, mx: 'auto' }}>
          {narrowed ? translate('app.list.no_match_hint') : detail}
        </Typography>
      ) : null}
    </Box>
  );
}
