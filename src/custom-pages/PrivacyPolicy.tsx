/** The static privacy policy (/privacy-policy, public). */
import { Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useDocumentTitle } from '../layout/pageTitle';

const SECTIONS = ['collected', 'use', 'retention', 'contact'] as const;

export function PrivacyPolicy() {
  const translate = useTranslate();
  useDocumentTitle(translate('app.privacy.title'));
  return (
    <Box component="main" sx={{ p: 4, maxWidth: 760, mx: 'auto' }}>
      <Typography variant="h4" component="h1" gutterBottom>
        {translate('app.privacy.title')}
      </Typography>
      <Typography paragraph>{translate('app.privacy.intro')}</Typography>
      {SECTIONS.map((section) => (
        <Box component="section" key={section} sx={{ mt: 3 }}>
          <Typography variant="h6" component="h2" gutterBottom>
            {translate(`app.privacy.${section}_title`)}
          </Typography>
          <Typography paragraph>{translate(`app.privacy.${section}`)}</Typography>
        </Box>
      ))}
    </Box>
  );
}

export default PrivacyPolicy;
