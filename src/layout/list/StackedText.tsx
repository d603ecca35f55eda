/** A list cell of a main line over a smaller grey one (folder over ad account, action over its changes). */
import { Box, Typography } from '@mui/material';

export function StackedText({
  primary,
  secondary,
  minWidth,
}: {
  primary?: string | null;
  secondary?: string | null;
  minWidth?: number;
}) {
  if (!primary && !secondary) return null;
  return (
    <Box sx={{ minWidth }}>
      {primary ? <Typography variant="body2">{primary}</Typography> : null}
      {secondary ? (
        <Typography
          variant="caption"
          color="text.secondary"
          component="div"
          sx={{ whiteSpace: 'pre-line', lineHeight: 1.5 }}
        >
          {secondary}
        </Typography>
      ) : null}
    </Box>
  );
}
