/**
 * The frame of the screens shown before signing in (login, password reset, join, the privacy
 * policy): the product's name over one centred card, the same width on each form (a document is
 * wider). While a screen's code loads the same frame
 * shows with a progress bar, so moving between them never flashes a blank page.
 */
import { Box, Card, CardContent, CardHeader, LinearProgress, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { useDocumentTitle } from './pageTitle';

function PublicFrame({ children, maxWidth = 440 }: { children: ReactNode; maxWidth?: number }) {
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
      <Card sx={{ width: '100%', maxWidth }} elevation={3}>
        {children}
      </Card>
    </Box>
  );
}

export interface PublicCardProps {
  /** Translation key of the card's heading. */
  title: string;
  /** Translation key of the screen's name in the document title. */
  pageName: string;
  /** Wider than a form's card, for a document. */
  maxWidth?: number;
  children: ReactNode;
}

export function PublicCard({ title, pageName, maxWidth, children }: PublicCardProps) {
  const translate = useTranslate();
  useDocumentTitle(translate(pageName));
  return (
    <PublicFrame maxWidth={maxWidth}>
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
