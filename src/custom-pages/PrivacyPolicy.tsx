/** The static privacy policy (/privacy-policy, public), with a way back to the console. */
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Box, Button, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { useDocumentTitle } from '../layout/pageTitle';

const SECTIONS = ['collected', 'use', 'retention', 'contact'] as const;

export function PrivacyPolicy() {
  const translate = useTranslate();
  useDocumentTitle(translate('app.privacy.title'));
  return (
    <Box component="main" sx={{ p: { xs: 2, sm: 4 }, maxWidth: 760, mx: 'auto' }}>
      <Button component={RouterLink} to="/" startIcon={<ArrowBackIcon />} sx={{ mb: 2 }}>
        {translate('app.privacy.back')}
      </Button>
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
