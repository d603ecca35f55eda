/**
 * The frame of the screens shown before signing in (login, password reset, join): the product's
 * name over one centred card, the same width on each.
 */
import { Box, Card, CardContent, CardHeader, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { useDocumentTitle } from './pageTitle';

export function PublicCard({ title, pageName, children }: { title: string; pageName: string; children: ReactNode }) {
  const translate = useTranslate();
  useDocumentTitle(translate(pageName));
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
        <CardHeader title={translate(title)} slotProps={{ title: { component: 'h1', variant: 'h5' } }} />
        <CardContent sx={{ pt: 0 }}>{children}</CardContent>
      </Card>
    </Box>
  );
}
