/**
 * The screens for a route that leads nowhere: Not found (any unknown address) and Access denied (a
 * screen the user's groups do not open). Each has a title, says what happened and offers the way
 * back to General.
 */
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Box, Button, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { Page } from './Page';

function ProblemPage({ title, message }: { title: string; message: string }) {
  const translate = useTranslate();
  return (
    <Page title={title}>
      <Box sx={{ py: 6, px: 2, textAlign: 'center' }}>
        <Typography variant="h5" component="h1" gutterBottom>
          {translate(title)}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {translate(message)}
        </Typography>
        <Button component={RouterLink} to="/" variant="contained" startIcon={<ArrowBackIcon />}>
          {translate('app.problem.back')}
        </Button>
      </Box>
    </Page>
  );
}

export const NotFoundPage = () => <ProblemPage title="app.problem.not_found" message="app.problem.not_found_text" />;

export const AccessDeniedPage = () => (
  <ProblemPage title="app.problem.access_denied" message="app.problem.access_denied_text" />
);
