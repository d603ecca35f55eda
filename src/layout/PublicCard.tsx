/**
 * The frame of the screens shown before signing in (login, password reset, join): the product's
 * name over one centred card, the same width on each. While a screen's code loads the same frame
 * shows with a progress bar, so moving between them never flashes a blank page.
 */
import { Box, Card, CardContent, CardHeader, LinearProgress, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { useDocumentTitle } from './pageTitle';

function PublicFrame({ children }: { children: ReactNode }) {
  const translate = useTranslate();
  return (
    <Box
      sx={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        bgcolor: 'background.default',
        p: 2,
      }}
    >
      <Typography variant="h6" component="p" color="primary" sx={{ mb: 2, fontWeight: 500 }}>
        {translate('app.name')}
      </Typography>
      <Card sx={{ width: '100%', maxWidth: 440 }} elevation={3}>
        {children}
      </Card>
    </Box>
  );
}

export function PublicCard({ title, pageName, children }: { title: string; pageName: string; children: ReactNode }) {
  const translate = useTranslate();
  useDocumentTitle(translate(pageName));
  return (
    <PublicFrame>
      <CardHeader title={translate(title)} slotProps={{ title: { component: 'h1', variant: 'h5' } }} />
      <CardContent sx={{ pt: 0 }}>{children}</CardContent>
    </PublicFrame>
  );
}

/** The frame while a public screen loads (a lazy route's fallback). */
export function PublicLoading() {
  const translate = useTranslate();
  return (
    <PublicFrame>
      <CardContent>
        <LinearProgress aria-label={translate('ra.page.loading')} />
      </CardContent>
    </PublicFrame>
  );
}
