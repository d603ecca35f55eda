/** Edit rule (/edit-rule/:id, SPEC §2): loads the rule and the time zones, then the editor; 'Rule not found' otherwise. */
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Box, Button, LinearProgress, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { useTranslate } from 'react-admin';
import { Link as RouterLink, useParams } from 'react-router-dom';
import type { RuleDto } from '../../domain/rules';
import { ErrorList, useErrorList } from '../../layout/ErrorList';
import { PageTitle } from '../../layout/pageTitle';
import { rulesApi, type TimezoneOption } from '../general/api';
import { RuleEditor } from './RuleEditor';

type Loaded =
  | { state: 'loading' }
  | { state: 'missing' }
  | { state: 'failed' }
  | { state: 'ready'; rule: RuleDto; timezones: TimezoneOption[] };

export function RuleNotFound() {
  const translate = useTranslate();
  return (
    <Box sx={{ py: 6, textAlign: 'center' }}>
      <PageTitle title="app.page.edit_rule" />
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
  );
}

export function EditRulePage() {
  const { id } = useParams();
  const { errors, showError } = useErrorList();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const validId = Boolean(id && /^\d+$/.test(id));

  useEffect(() => {
    if (!validId) return undefined;
    const controller = new AbortController();
    setLoaded({ state: 'loading' });
    Promise.all([rulesApi.rule(id!, controller.signal), rulesApi.timezones(controller.signal)])
      .then(([rule, timezones]) =>
        setLoaded(rule.is_deleted ? { state: 'missing' } : { state: 'ready', rule, timezones }),
      )
      .catch((error) => {
        if (controller.signal.aborted) return;
        if ((error as { status?: number }).status === 404) setLoaded({ state: 'missing' });
        else {
          setLoaded({ state: 'failed' });
          showError(error);
        }
      });
    return () => controller.abort();
  }, [id, validId, showError]);

  if (!validId || loaded.state === 'missing') return <RuleNotFound />;
  return (
    <Box>
      <PageTitle title="app.page.edit_rule" />
      <ErrorList errors={errors} />
      {loaded.state === 'loading' ? <LinearProgress sx={{ my: 2 }} /> : null}
      {loaded.state === 'ready' ? (
        <RuleEditor key={loaded.rule.id} rule={loaded.rule} timezones={loaded.timezones} />
      ) : null}
    </Box>
  );
}

export default EditRulePage;
