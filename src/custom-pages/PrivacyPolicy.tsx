/** The static privacy policy (/privacy-policy, public), with a way back to the console. */
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Box, Button, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { PublicCard } from '../layout/PublicCard';

const SECTIONS = ['collected', 'leads', 'use', 'retention', 'contact'] as const;

export function PrivacyPolicy() {
  const translate = useTranslate();
  return (
    <PublicCard title="app.privacy.title" pageName="app.privacy.title" maxWidth={760}>
      <Typography paragraph>{translate('app.privacy.intro')}</Typography>
      {SECTIONS.map((section) => (
        <Box component="section" key={section} sx={{ mt: 3 }}>
          <Typography variant="h6" component="h2" gutterBottom>
            {translate(`app.privacy.${section}_title`)}
          </Typography>
          <Typography paragraph>{translate(`app.privacy.${section}`)}</Typography>
        </Box>
      ))}
      <Button component={RouterLink} to="/" startIcon={<ArrowBackIcon />}>
        {translate('app.privacy.back')}
      </Button>
    </PublicCard>
  );
}

export default PrivacyPolicy;
