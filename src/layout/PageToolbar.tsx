/**
 * The row of controls at the top of a signed-in screen (back, title, search, buttons, trash link):
 * one height and one spacing on every screen, so switching screens does not make the page jump.
 */
import { Stack } from '@mui/material';
import type { ReactNode } from 'react';

export function PageToolbar({ children }: { children: ReactNode }) {
  return (
    <Stack
      direction="row"
      spacing={1}
      alignItems="center"
      useFlexGap
      flexWrap="wrap"
      sx={{ minHeight: 60, pt: 1, pb: 1.5 }}
    >
      {children}
    </Stack>
  );
}

/** Pushes what follows it in a PageToolbar to the right edge. */
export function ToolbarSpacer() {
  return <Stack sx={{ flexGrow: 1 }} aria-hidden="true" />;
}
