/**
 * The Update Folder dialog's "Lead outcomes (CRM)" section (docs/screens.md): the folder's leads by
 * CRM stage, a CSV upload with the answer's counts and each refused row's errors, and the folder's
 * key for the CRM, shown once when made or rotated, with a request to copy. Works apart from the
 * dialog's Save: an upload or a key change takes effect at once.
 */
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { Alert, Box, Button, Chip, IconButton, Stack, TextField, Tooltip, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, useRef, useState } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import {
  CRM_MAX_ROW_ERRORS,
  CRM_UPLOAD_MAX_BYTES,
  type CrmResult,
  type NewOutcomeKey,
} from '../../../shared/leadOutcomes';
import { ErrorList } from '../../layout/ErrorList';
import { paths } from '../../providers/apiPaths';
import type { AppDataProvider } from '../../providers/dataProvider';
import { errorMessages } from '../../providers/httpErrors';
import { queryKeys } from '../../providers/queryKeys';
import { formatDateTime } from '../../layout/dateFormat';

const MEGABYTES = CRM_UPLOAD_MAX_BYTES / (1024 * 1024);
const when = (iso: string) => formatDateTime(iso);

/** `rows.7.stage` → row 7, field stage. */
function rowErrorsOf(errors: CrmResult['errors']): { row: string; field: string; message: string }[] {
  return Object.entries(errors).flatMap(([key, messages]) => {
    const [, row = '', field = ''] = /^rows\.(\d+)\.(\w+)$/.exec(key) ?? [];
    return messages.map((message) => ({ row, field, message }));
  });
}

/** The request a CRM sends, ready to paste into a terminal. */
export function exampleRequest(
  key: string,
  url = new URL(paths.leadOutcomes, window.location.href).toString(),
): string {
  const body = JSON.stringify({
    outcomes: [{ email: 'lead@example.com', stage: 'qualified', time: `${new Date().toISOString().slice(0, 19)}Z` }],
  });
  return `curl -X POST '${url}' \\\n  -H 'Authorization: Bearer ${key}' \\\n  -H 'Content-Type: application/json' \\\n  -d '${body}'`;
}

function CopyButton({ text }: { text: string }) {
  const translate = useTranslate();
  const [copied, setCopied] = useState(false);
  const label = translate(copied ? 'lead_outcomes.copied' : 'lead_outcomes.copy');
  return (
    <Tooltip title={label}>
      <IconButton
        aria-label={label}
        onClick={async () => {
          await navigator.clipboard?.writeText(text);
          setCopied(true);
        }}
      >
        <ContentCopyIcon fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}

function UploadResult({ result }: { result: CrmResult }) {
  const translate = useTranslate();
  const rows = rowErrorsOf(result.errors);
  return (
    <Alert severity={result.refused ? 'warning' : 'success'} role="status">
      <Typography variant="body2">{translate('lead_outcomes.result', result)}</Typography>
      {rows.length ? (
        <Box component="ul" sx={{ m: 0, pl: 2 }} aria-label={translate('lead_outcomes.title')}>
          {rows.map(({ row, field, message }) => (
            <li key={`${row}.${field}`}>
              <Typography variant="body2">{translate('lead_outcomes.row_error', { row, field, message })}</Typography>
            </li>
          ))}
        </Box>
      ) : null}
      {result.refused > CRM_MAX_ROW_ERRORS ? (
        <Typography variant="caption">{translate('lead_outcomes.more_errors')}</Typography>
      ) : null}
    </Alert>
  );
}

function NewKey({ made }: { made: NewOutcomeKey }) {
  const translate = useTranslate();
  const example = exampleRequest(made.key);
  return (
    <Stack spacing={1}>
      <Alert severity="info">{translate('lead_outcomes.key_shown_once')}</Alert>
      <Stack direction="row" alignItems="center">
        <TextField
          fullWidth
          size="small"
          label={translate('lead_outcomes.key_label')}
          value={made.key}
          slotProps={{ htmlInput: { readOnly: true, spellCheck: false } }}
        />
        <CopyButton text={made.key} />
      </Stack>
      <Stack direction="row" alignItems="flex-start">
        <TextField
          fullWidth
          multiline
          size="small"
          label={translate('lead_outcomes.example_label')}
          value={example}
          slotProps={{
            htmlInput: { readOnly: true, spellCheck: false, style: { fontFamily: 'monospace', fontSize: 12 } },
          }}
        />
        <CopyButton text={example} />
      </Stack>
    </Stack>
  );
}

export function LeadOutcomesSection({ folderId }: { folderId: number }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const fileInput = useRef<HTMLInputElement>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const [result, setResult] = useState<CrmResult | null>(null);
  const [made, setMade] = useState<NewOutcomeKey | null>(null);
  const summary = useQuery({
    queryKey: queryKeys.leadOutcomes(folderId),
    queryFn: ({ signal }) => dataProvider.getLeadOutcomes(folderId, signal),
    retry: false,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.leadOutcomes(folderId) });
  const failed = (error: unknown) => setErrors(errorMessages(error));
  const upload = useMutation({
    mutationFn: (csv: string) => dataProvider.uploadLeadOutcomes(folderId, csv),
    onSuccess: (answer) => {
      setResult(answer);
      refresh();
    },
    onError: failed,
  });
  const rotate = useMutation({
    mutationFn: () => dataProvider.rotateOutcomeKey(folderId),
    onSuccess: (answer) => {
      setMade(answer);
      refresh();
    },
    onError: failed,
  });
  const revoke = useMutation({
    mutationFn: () => dataProvider.revokeOutcomeKey(folderId),
    onSuccess: () => {
      setMade(null);
      refresh();
    },
    onError: failed,
  });

  const chooseFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = ''; // the same file may be chosen again
    if (!file) return;
    setErrors([]);
    setResult(null);
    if (file.size > CRM_UPLOAD_MAX_BYTES) {
      setErrors([translate('lead_outcomes.too_large', { mb: MEGABYTES })]);
      return;
    }
    upload.mutate(await file.text());
  };

  const data = summary.data;
  const key = data?.key ?? null;
  return (
    <Stack component="section" spacing={1.5} aria-labelledby={`lead-outcomes-${folderId}`}>
      <Typography id={`lead-outcomes-${folderId}`} variant="subtitle2" color="text.secondary">
        {translate('lead_outcomes.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {translate('lead_outcomes.help')}
      </Typography>
      <ErrorList errors={summary.error ? errorMessages(summary.error) : errors} />
      {data ? (
        <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap>
          {data.stages.map(({ stage, leads }) => (
            <Chip key={stage} label={`${translate(`lead_outcomes.stages.${stage}`, { _: stage })}: ${leads}`} />
          ))}
          <Typography variant="caption" color="text.secondary" sx={{ alignSelf: 'center' }}>
            {data.last_recorded_at
              ? translate('lead_outcomes.last_recorded', { at: when(data.last_recorded_at) })
              : translate('lead_outcomes.none_yet')}
          </Typography>
        </Stack>
      ) : null}

      <Box>
        <input
          ref={fileInput}
          type="file"
          accept=".csv,text/csv"
          hidden
          aria-label={translate('lead_outcomes.upload')}
          onChange={chooseFile}
        />
        <Button
          variant="outlined"
          startIcon={<UploadFileIcon />}
          loading={upload.isPending}
          onClick={() => fileInput.current?.click()}
        >
          {translate('lead_outcomes.upload')}
        </Button>
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>
          {translate('lead_outcomes.upload_help', { mb: MEGABYTES })}
        </Typography>
      </Box>
      {result ? <UploadResult result={result} /> : null}

      <Typography variant="subtitle2" color="text.secondary">
        {translate('lead_outcomes.key_title')}
      </Typography>
      <Typography variant="body2">
        {key
          ? `${translate('lead_outcomes.key_status', { hint: key.hint, created: when(key.created_at) })} ${
              key.last_used_at
                ? translate('lead_outcomes.key_last_used', { at: when(key.last_used_at) })
                : translate('lead_outcomes.key_never_used')
            }`
          : translate('lead_outcomes.key_none')}
      </Typography>
      <Stack direction="row" spacing={1}>
        <Tooltip title={key ? translate('lead_outcomes.key_rotate_help') : ''}>
          <span>
            <Button variant="outlined" loading={rotate.isPending} onClick={() => rotate.mutate()}>
              {translate(key ? 'lead_outcomes.key_rotate' : 'lead_outcomes.key_create')}
            </Button>
          </span>
        </Tooltip>
        {key ? (
          <Button color="error" loading={revoke.isPending} onClick={() => revoke.mutate()}>
            {translate('lead_outcomes.key_revoke')}
          </Button>
        ) : null}
      </Stack>
      {made ? <NewKey made={made} /> : null}
    </Stack>
  );
}
