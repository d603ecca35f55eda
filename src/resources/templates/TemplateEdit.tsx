/**
 * A template (/templates/:id): its rule, edited with the rule editor's parts, saved only through
 * the preview of what the edit does across the folders that follow it; the folders, their
 * overrides and the lookalikes beneath. A person who may not edit it sees why, read-only.
 */
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import PreviewIcon from '@mui/icons-material/Preview';
import { Alert, Button, LinearProgress, Paper, Stack, TextField, Tooltip } from '@mui/material';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { SNACKBAR_TIMEOUT_MS } from '../../../shared/constants';
import type { TemplateDto } from '../../../shared/templates';
import { LeaveGuard } from '../../layout/rule-form/LeaveGuard';
import { ErrorList, useErrorList } from '../../layout/ErrorList';
import { Page } from '../../layout/Page';
import type { AppDataProvider } from '../../providers/dataProvider';
import { queryKeys } from '../../providers/queryKeys';
import type { TimezoneOption } from '../../providers/ruleMethods';
import { usePermission } from '../../providers/usePermissions';
import { TemplateFolders } from './TemplateFolders';
import { TemplatePreviewDialog } from './TemplatePreviewDialog';
import { TemplateRuleForm } from './TemplateRuleForm';
import {
  hasTemplateErrors,
  templateChanged,
  templateDraftOf,
  templateErrorsOf,
  templatePatchOf,
  type TemplateErrors,
} from './templateDraft';

const noShownErrors: TemplateErrors = { items: { filters: {}, tasks: {} }, expressive: {}, judging: {} };

function TemplateEditor({
  template,
  timezones,
  onChanged,
}: {
  template: TemplateDto;
  timezones: TimezoneOption[];
  onChanged: () => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const canEditRules = usePermission('create_update_rules');
  const { errors: errorList, showError, clearErrors } = useErrorList();
  const loaded = useMemo(() => templateDraftOf(template.values), [template]);
  const [draft, setDraft] = useState(loaded);
  const [tried, setTried] = useState(false);
  const [previewing, setPreviewing] = useState(false);
  const saved = useRef(false);
  const dirty = templateChanged(loaded, draft);
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const errors = templateErrorsOf(draft);
  const invalid = hasTemplateErrors(errors);
  const readOnly = !template.can_edit;

  const save = useMutation({
    mutationFn: () => dataProvider.saveTemplate(template.id, templatePatchOf(draft)),
    onSuccess: () => {
      saved.current = true;
      setPreviewing(false);
      notify(translate('resources.templates.saved'), { type: 'success', autoHideDuration: SNACKBAR_TIMEOUT_MS });
      onChanged();
    },
    onError: (error) => {
      setPreviewing(false);
      showError(error);
    },
  });
  const remove = useMutation({
    mutationFn: () => dataProvider.delete('templates', { id: template.id, previousData: template }),
    onSuccess: () => {
      saved.current = true;
      notify(translate('resources.templates.deleted'), { type: 'info', autoHideDuration: SNACKBAR_TIMEOUT_MS });
      navigate('/templates');
    },
    onError: (error) => showError(error),
  });

  const openPreview = () => {
    clearErrors();
    setTried(true);
    if (!invalid) setPreviewing(true);
  };

  return (
    <Stack spacing={2} sx={{ py: 1 }}>
      <LeaveGuard shouldBlock={() => dirtyRef.current && !saved.current} />
      <Paper variant="outlined" sx={{ position: 'sticky', top: 48, zIndex: 2, p: 1 }}>
        <Stack direction="row" spacing={1} alignItems="center" useFlexGap flexWrap="wrap">
          <Tooltip title={translate('resources.templates.back')}>
            <Button
              component={RouterLink}
              to="/templates"
              aria-label={translate('resources.templates.back')}
              sx={{ minWidth: 44, minHeight: 44 }}
            >
              <ArrowBackIcon />
            </Button>
          </Tooltip>
          <TextField
            size="small"
            value={draft.values.name}
            disabled={readOnly}
            onChange={(e) => setDraft({ ...draft, values: { ...draft.values, name: e.target.value } })}
            error={tried && Boolean(errors.items.name)}
            helperText={tried ? errors.items.name : undefined}
            slotProps={{ htmlInput: { 'aria-label': translate('resources.templates.fields.name') } }}
            sx={{ flex: 1, minWidth: { xs: 'calc(100% - 60px)', sm: 240 } }}
          />
          <Button
            variant="contained"
            startIcon={<PreviewIcon />}
            disabled={readOnly || !dirty}
            onClick={openPreview}
            sx={{ minHeight: 44 }}
          >
            {translate('resources.templates.preview_save')}
          </Button>
          {canEditRules ? (
            <Button
              color="error"
              startIcon={<DeleteOutlineIcon />}
              disabled={readOnly || remove.isPending}
              onClick={() => remove.mutate()}
              sx={{ minHeight: 44 }}
            >
              {translate('ra.action.delete')}
            </Button>
          ) : null}
        </Stack>
      </Paper>
      {readOnly && template.read_only_reason ? <Alert severity="info">{template.read_only_reason}</Alert> : null}
      <ErrorList errors={errorList} />
      <TemplateRuleForm
        draft={draft}
        errors={tried ? errors : noShownErrors}
        timezones={timezones}
        disabled={readOnly}
        onChange={setDraft}
      />
      <TemplateFolders template={template} canEditRules={canEditRules} onChanged={onChanged} />
      {previewing ? (
        <TemplatePreviewDialog
          templateId={template.id}
          patch={templatePatchOf(draft)}
          saving={save.isPending}
          onCancel={() => setPreviewing(false)}
          onSave={() => save.mutate()}
        />
      ) : null}
    </Stack>
  );
}

export default function TemplateEdit() {
  const { id } = useParams();
  const dataProvider = useDataProvider<AppDataProvider>();
  const { errors, showError } = useErrorList();
  const templateId = Number(id);
  const template = useQuery({
    queryKey: ['templates', templateId],
    queryFn: ({ signal }) => dataProvider.getTemplate(templateId, signal),
    enabled: Number.isInteger(templateId),
    retry: false,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
  const timezones = useQuery({
    queryKey: queryKeys.timezones,
    queryFn: ({ signal }) => dataProvider.getTimezones(signal),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const error = template.error ?? timezones.error;
  const shown = useRef<unknown>(null);
  if (error && shown.current !== error) {
    shown.current = error;
    queueMicrotask(() => showError(error));
  }
  const ready = template.data && timezones.data;
  return (
    <Page title="resources.templates.edit_page">
      <ErrorList errors={errors} />
      {!error && !ready ? <LinearProgress sx={{ my: 2 }} /> : null}
      {ready ? (
        <TemplateEditor
          key={template.data.updated_at}
          template={template.data}
          timezones={timezones.data}
          onChanged={() => void template.refetch()}
        />
      ) : null}
    </Page>
  );
}
