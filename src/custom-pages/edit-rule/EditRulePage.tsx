/**
 * Edit rule (/edit-rule/:id, docs/screens.md): loads the rule (react-admin's useGetOne, fresh on every
 * visit) and the time zones (once a session), then the editor; 'Rule not found' otherwise.
 */
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Box, Button, LinearProgress, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useDataProvider, useGetOne, useTranslate } from 'react-admin';
import { Link as RouterLink, useParams } from 'react-router-dom';
import type { RuleDto } from '../../../shared/rules';
import { ErrorList, useErrorList } from '../../layout/ErrorList';
import { Page } from '../../layout/Page';
import type { AppDataProvider } from '../../providers/dataProvider';
import { queryKeys } from '../../providers/queryKeys';
import { RuleEditor } from './RuleEditor';
import { TemplatePanel } from './TemplatePanel';

const isNotFound = (error: unknown) => (error as { status?: number } | null)?.status === 404;

export function RuleNotFound() {
  const translate = useTranslate();
  return (
    <Page title="app.page.edit_rule">
      <Box sx={{ py: 6, textAlign: 'center' }}>
        <Typography variant="h5" component="h1" gutterBottom>
          {translate('rules.editor.not_found')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {translate('rules.editor.not_found_hint')}
        </Typography>
        <Button component={RouterLink} to="/" variant="outlined" startIcon={<ArrowBackIcon />}>
          {translate('rules.editor.back')}
        </Button>
      </Box>
    </Page>
  );
}

export function EditRulePage() {
  const { id } = useParams();
  const { errors, showError } = useErrorList();
  const dataProvider = useDataProvider<AppDataProvider>();
  const validId = Boolean(id && /^\d+$/.test(id));
  const rule = useGetOne<RuleDto>(
    'rule',
    { id: Number(id) },
    // Not kept after leaving, nor reloaded under the user's edits: the editor starts from what it loaded.
    { enabled: validId, retry: false, gcTime: 0, refetchOnWindowFocus: false, refetchOnReconnect: false },
  );
  const timezones = useQuery({
    queryKey: queryKeys.timezones,
    queryFn: ({ signal }) => dataProvider.getTimezones(signal),
    enabled: validId,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const error = (isNotFound(rule.error) ? null : rule.error) ?? timezones.error;

  useEffect(() => {
    if (error) showError(error);
  }, [error, showError]);

  if (!validId || isNotFound(rule.error) || rule.data?.is_deleted) return <RuleNotFound />;
  const ready = rule.data && timezones.data && !error;
  return (
    <Page title="app.page.edit_rule">
      <ErrorList errors={errors} />
      {!error && !ready ? <LinearProgress sx={{ my: 2 }} /> : null}
      {ready && rule.data.template ? <TemplatePanel rule={rule.data} onChanged={() => void rule.refetch()} /> : null}
      {ready ? (
        // A reset or leaving the template saves on the server: the editor starts again from the rule as saved.
        <RuleEditor key={`${rule.data.id}-${rule.data.updated_at}`} rule={rule.data} timezones={timezones.data} />
      ) : null}
    </Page>
  );
}

export default EditRulePage;
