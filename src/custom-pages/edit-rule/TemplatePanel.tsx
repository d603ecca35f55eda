/**
 * A rule that follows a template, at the top of its editor: which template, each field inherited
 * (it changes when the template does) or overridden for this folder, Reset on each override (it
 * saves at once and the editor reloads), and Leave the template (the rule keeps its values).
 * Editing an inherited field below and saving overrides it.
 */
import LinkOffIcon from '@mui/icons-material/LinkOff';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import {
  Alert,
  Box,
  Button,
  Chip,
  Collapse,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  Typography,
} from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { SNACKBAR_TIMEOUT_MS } from '../../../shared/constants';
import type { RuleDto } from '../../../shared/rules';
import { TEMPLATE_FIELDS, templateFieldLabel, type TemplateField } from '../../../shared/templates';
import type { AppDataProvider } from '../../providers/dataProvider';
import { usePermission } from '../../providers/usePermissions';

export function TemplatePanel({ rule, onChanged }: { rule: RuleDto; onChanged: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<AppDataProvider>();
  const mayEdit = usePermission('create_update_rules');
  const [showAll, setShowAll] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const template = rule.template;
  const failed = (error: { body?: Record<string, unknown> }) => {
    const body = error.body ?? {};
    notify((body.detail as string) ?? (body.field as string[] | undefined)?.[0] ?? 'ra.notification.http_error', {
      type: 'error',
    });
  };
  const reset = useMutation({
    mutationFn: (field: TemplateField) => dataProvider.resetOverride(rule.id, field),
    onSuccess: (_rule, field) => {
      notify(translate('rules.template.reset_done', { field: templateFieldLabel(field) }), {
        type: 'success',
        autoHideDuration: SNACKBAR_TIMEOUT_MS,
      });
      onChanged();
    },
    onError: failed,
  });
  const leave = useMutation({
    mutationFn: () => dataProvider.leaveTemplate(rule.id),
    onSuccess: () => {
      setLeaving(false);
      notify(translate('rules.template.left'), { type: 'success', autoHideDuration: SNACKBAR_TIMEOUT_MS });
      onChanged();
    },
    onError: failed,
  });
  if (!template) return null;
  const overrides = new Set(template.overrides);
  const busy = reset.isPending || leave.isPending;
  return (
    <Alert
      severity="info"
      icon={false}
      component="section"
      // A standing panel, not an announcement.
      role="region"
      aria-label={translate('rules.template.title')}
      sx={{ '& .MuiAlert-message': { width: '100%' } }}
    >
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} alignItems={{ sm: 'center' }}>
        <Typography sx={{ flex: 1 }}>
          {translate('rules.template.follows')}{' '}
          <RouterLink to={`/templates/${template.id}`}>{template.name}</RouterLink>.{' '}
          {overrides.size
            ? translate('rules.template.overrides_some', { smart_count: overrides.size })
            : translate('rules.template.inherits_all')}
        </Typography>
        <Button
          size="small"
          color="inherit"
          startIcon={<LinkOffIcon />}
          disabled={!mayEdit || busy}
          onClick={() => setLeaving(true)}
          sx={{ minHeight: 44 }}
        >
          {translate('rules.template.leave')}
        </Button>
      </Stack>
      {overrides.size ? (
        <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap" sx={{ mt: 1 }}>
          {template.overrides.map((field) => (
            <Chip
              key={field}
              color="warning"
              variant="outlined"
              label={translate('rules.template.overridden', { field: templateFieldLabel(field as TemplateField) })}
              onDelete={mayEdit && !busy ? () => reset.mutate(field as TemplateField) : undefined}
              deleteIcon={
                <RestartAltIcon
                  aria-label={translate('rules.template.reset_aria', {
                    field: templateFieldLabel(field as TemplateField),
                  })}
                />
              }
              sx={{ minHeight: 44 }}
            />
          ))}
        </Stack>
      ) : null}
      <Typography variant="body2" sx={{ mt: 1 }}>
        {translate('rules.template.how')}
      </Typography>
      {mayEdit ? null : (
        <Typography variant="body2" sx={{ mt: 0.5 }}>
          {translate('rules.template.read_only')}
        </Typography>
      )}
      <Button size="small" color="inherit" onClick={() => setShowAll(!showAll)} sx={{ mt: 0.5, minHeight: 44, px: 0 }}>
        {translate(showAll ? 'rules.template.hide_fields' : 'rules.template.show_fields')}
      </Button>
      <Collapse in={showAll}>
        <Box component="ul" sx={{ columns: { xs: 1, sm: 2, md: 3 }, pl: 2, my: 0 }}>
          {TEMPLATE_FIELDS.map((field) => (
            <li key={field}>
              <Typography variant="body2">
                {templateFieldLabel(field)}:{' '}
                <strong>
                  {translate(
                    overrides.has(field) ? 'rules.template.state_overridden' : 'rules.template.state_inherited',
                  )}
                </strong>
              </Typography>
            </li>
          ))}
        </Box>
      </Collapse>
      <Dialog open={leaving} onClose={() => setLeaving(false)} aria-labelledby="leave-template-title">
        <DialogTitle id="leave-template-title">
          {translate('rules.template.leave_title', { name: template.name })}
        </DialogTitle>
        <DialogContent>
          <DialogContentText>{translate('rules.template.leave_text')}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setLeaving(false)} autoFocus>
            {translate('ra.action.cancel')}
          </Button>
          <Button color="warning" loading={leave.isPending} onClick={() => leave.mutate()}>
            {translate('rules.template.leave')}
          </Button>
        </DialogActions>
      </Dialog>
    </Alert>
  );
}
