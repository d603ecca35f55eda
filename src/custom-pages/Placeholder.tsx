/** A route whose screen is still being built: its title and a short note. */
import { Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { PageTitle, useDocumentTitle } from '../layout/pageTitle';

export function Placeholder({ title }: { title: string }) {
  const translate = useTranslate();
  return (
    <Box sx={{ py: 2 }}>
      <PageTitle title={title} />
      <Typography variant="h5" component="h1" gutterBottom>
        {translate(title)}
      </Typography>
      <Typography color="text.secondary">{translate('app.page.placeholder')}</Typography>
    </Box>
  );
}

/** The same for public routes, which have no header to hold the title. */
export function PublicPlaceholder({ title }: { title: string }) {
  const translate = useTranslate();
  useDocumentTitle(translate(title));
  return (
    <Box sx={{ p: 4, maxWidth: 640, mx: 'auto' }}>
      <Typography variant="h5" component="h1" gutterBottom>
        {translate(title)}
      </Typography>
      <Typography color="text.secondary">{translate('app.page.placeholder')}</Typography>
    </Box>
  );
}
