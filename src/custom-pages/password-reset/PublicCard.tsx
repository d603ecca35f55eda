/** The frame of the public people screens (password reset, join): a centred card like Login's. */
import { Box, Card, CardContent, CardHeader } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { useDocumentTitle } from '../../layout/pageTitle';

export function PublicCard({ title, pageName, children }: { title: string; pageName: string; children: ReactNode }) {
  const translate = useTranslate();
  useDocumentTitle(translate(pageName));
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', bgcolor: 'background.default', p: 2 }}>
      <Card sx={{ width: '100%', maxWidth: 460 }} elevation={3}>
        <CardHeader title={translate(title)} slotProps={{ title: { component: 'h1', variant: 'h5' } }} />
        <CardContent>{children}</CardContent>
      </Card>
    </Box>
  );
}
