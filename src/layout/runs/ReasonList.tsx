/** A reason object as lines "Key: value" (docs/screens.md: Info lists each key of the reason with its value). */
import { Box, Typography } from '@mui/material';

export function ReasonList({ reason }: { reason: Record<string, string> | null | undefined }) {
  const entries = Object.entries(reason ?? {});
  if (!entries.length) return null;
  return (
    <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 1, rowGap: 0 }}>
      {entries.map(([key, value]) => (
        <Box key={key} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="caption" color="text.secondary" sx={{ fontWeight: 500 }}>
            {key}:
          </Typography>
          <Typography component="dd" variant="caption" sx={{ m: 0, overflowWrap: 'anywhere' }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
