/**
 * Create Folder / Update Folder (docs/screens.md): Type, Plan, Ad account name (from the ad-account list),
 * Folder name, optional webinar-service credentials (a warning when the stored ones need re-entry:
 * the server's key cannot read them), the folder's own alert recipients (empty: the default ones)
 * and the folded Budget limits, sent as `budget_limits` when
 * changed. A missing required field blocks the call
 * and says 'This field is required'; the server's 400s show under their fields. The account list
 * can be refreshed from the ad platform, for an account created there since the server started.
 */
import RefreshIcon from '@mui/icons-material/Refresh';
import {
  Alert,
  Autocomplete,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  MenuItem,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import type { BudgetLimits } from '../../../shared/budgetLimits';
import { CLIENT_TYPES, PLANS } from '../../../shared/constants';
import { splitEmails } from '../../../shared/alertEmails';
import { folderCreateSchema, type FolderDto, type FolderPayload } from '../../../shared/folders';
import { toFieldErrors } from '../../../shared/validation';
import { ErrorList } from '../../layout/ErrorList';
import type { AppDataProvider } from '../../providers/dataProvider';
import { errorMessages } from '../../providers/httpErrors';
import { queryKeys } from '../../providers/queryKeys';
import type { AdAccountOption } from '../../providers/ruleMethods';
import {
  BudgetLimitsSection,
  limitsDraftOf,
  limitsErrorsOf,
  limitsOf,
  limitsServerErrorsOf,
  type LimitsDraft,
} from './BudgetLimitsSection';
import { LeadOutcomesSection } from './LeadOutcomesSection';

interface Values {
  client_type: string;
  plan: string;
  meta_ad_account_id: string;
  name: string;
  api_key: string;
  api_secret: string;
  /** The folder's own alert recipients as typed: addresses separated by commas. */
  alert_emails: string;
}

const valuesOf = (folder: FolderDto | null): Values => ({
  client_type: folder?.client_type ?? '',
  plan: folder?.plan ?? '',
  meta_ad_account_id: folder?.meta_ad_account?.ad_account_id ?? '',
  name: folder?.name ?? '',
  api_key: folder?.extension.external_credentials.demio?.api_key ?? '',
  api_secret: folder?.extension.external_credentials.demio?.api_secret ?? '',
  alert_emails: (folder?.alert_emails ?? []).join(', '),
});

const payloadOf = (v: Values): FolderPayload => ({
  client_type: v.client_type,
  plan: v.plan,
  meta_ad_account_id: v.meta_ad_account_id,
  name: v.name.trim(),
  extension: {
    external_credentials: {
      demio:
        v.api_key.trim() || v.api_secret.trim() ? { api_key: v.api_key.trim(), api_secret: v.api_secret.trim() } : null,
    },
  },
  // Only when there are any: an empty list is the default, and clearing a folder's own ones is submit's.
  ...(splitEmails(v.alert_emails).length ? { alert_emails: splitEmails(v.alert_emails) } : {}),
});

/** Field errors keyed by the dialog's field names ('extension.external_credentials.demio.api_key' → api_key). */
function fieldErrorsOf(errors: Record<string, unknown>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(errors)) {
    const field = key.split('.').pop()!;
    const text = Array.isArray(value) ? value.join(' ') : typeof value === 'string' ? value : '';
    if (text && field in valuesOf(null)) result[field] = text;
  }
  return result;
}

export interface FolderDialogProps {
  open: boolean;
  /** The folder to update; null creates one. */
  folder: FolderDto | null;
  onClose: () => void;
  onSaved: (folder: FolderDto) => void;
}

const NO_ACCOUNTS: AdAccountOption[] = [];

/** The folder's limits as answered (the defaults when the answer has none). */
const storedLimitsOf = (folder: FolderDto | null) =>
  (folder as { budget_limits?: Partial<BudgetLimits> | null } | null)?.budget_limits;

/** The ad-account options (GET /api/meta_ad_account/?limit=400) and their refresh from the ad platform. */
function useAdAccounts(open: boolean, onError: (error: unknown) => void) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: queryKeys.adAccounts,
    queryFn: ({ signal }) => dataProvider.getAdAccounts(signal),
    enabled: open,
    retry: false,
  });
  // Pending until the list has loaded again, so the button spins for the whole refresh.
  const refresh = useMutation({
    mutationFn: () => dataProvider.refreshAdAccounts(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.adAccounts }),
    onError,
  });
  useEffect(() => {
    if (list.error) onError(list.error);
  }, [list.error, onError]);
  return { accounts: list.data ?? NO_ACCOUNTS, refresh: () => refresh.mutate(), refreshing: refresh.isPending };
}

export function FolderDialog({ open, folder, onClose, onSaved }: FolderDialogProps) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [values, setValues] = useState<Values>(() => valuesOf(folder));
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [otherErrors, setOtherErrors] = useState<string[]>([]);
  const storedLimits = storedLimitsOf(folder);
  const [limits, setLimits] = useState<LimitsDraft>(() => limitsDraftOf(storedLimits));
  const [limitsOpen, setLimitsOpen] = useState(false);
  const [limitsServerErrors, setLimitsServerErrors] = useState<Record<string, string>>({});
  const limitsErrors = useMemo(
    () => ({ ...limitsErrorsOf(limits), ...limitsServerErrors }),
    [limits, limitsServerErrors],
  );
  const limitsChanged = JSON.stringify(limitsOf(limits)) !== JSON.stringify(limitsOf(limitsDraftOf(storedLimits)));
  const showOtherErrors = useCallback((error: unknown) => setOtherErrors(errorMessages(error)), []);
  const { accounts, refresh, refreshing } = useAdAccounts(open, showOtherErrors);
  const save = useMutation({
    mutationFn: async (payload: FolderPayload & { budget_limits?: Partial<BudgetLimits> }): Promise<FolderDto> =>
      folder
        ? dataProvider.updateFolder(folder.id, payload)
        : (await dataProvider.create('general_page', { data: payload })).data,
  });
  const saving = save.isPending;

  useEffect(() => {
    if (!open) return;
    setValues(valuesOf(folder));
    setTouched({});
    setServerErrors({});
    setOtherErrors([]);
    setLimits(limitsDraftOf(storedLimitsOf(folder)));
    setLimitsOpen(false);
    setLimitsServerErrors({});
  }, [open, folder]);

  const checked = useMemo(() => {
    const result = folderCreateSchema.safeParse(payloadOf(values));
    return result.success ? {} : fieldErrorsOf(toFieldErrors(result.error));
  }, [values]);

  const errorOf = (field: keyof Values) => serverErrors[field] ?? (touched[field] ? checked[field] : undefined);
  const change = (field: keyof Values) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setTouched((t) => ({ ...t, [field]: true }));
    setServerErrors(({ [field]: _cleared, ...rest }) => rest);
  };

  // The chosen account may not be in the list (e.g. no longer synced): keep it selectable.
  const options = useMemo(() => {
    const current = folder?.meta_ad_account;
    return current && !accounts.some((a) => a.ad_account_id === current.ad_account_id)
      ? [...accounts, { ad_account_id: current.ad_account_id, account_name: current.account_name }]
      : accounts;
  }, [accounts, folder]);
  const selectedAccount = options.find((a) => a.ad_account_id === values.meta_ad_account_id) ?? null;

  const submit = async () => {
    setTouched(Object.fromEntries(Object.keys(values).map((k) => [k, true])));
    if (Object.keys(limitsErrorsOf(limits)).length) setLimitsOpen(true);
    if (Object.keys(checked).length || Object.keys(limitsErrorsOf(limits)).length) return;
    setOtherErrors([]);
    try {
      const payload = payloadOf(values);
      if (folder?.alert_emails?.length && !payload.alert_emails) payload.alert_emails = [];
      onSaved(await save.mutateAsync(limitsChanged ? { ...payload, budget_limits: limitsOf(limits) } : payload));
    } catch (error) {
      const body = (error as { body?: Record<string, unknown> }).body;
      const fields = body ? fieldErrorsOf(body) : {};
      setServerErrors(fields);
      const limitFields = limitsServerErrorsOf(body);
      setLimitsServerErrors(limitFields);
      if (Object.keys(limitFields).length) setLimitsOpen(true);
      setOtherErrors(errorMessages(error));
    }
  };

  const title = translate(folder ? 'rules.folder_dialog.update_title' : 'rules.folder_dialog.create_title');
  return (
    <Dialog
      open={open}
      onClose={saving ? undefined : onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby="folder-dialog-title"
    >
      <DialogTitle id="folder-dialog-title">{title}</DialogTitle>
      <DialogContent>
        {/* A flex gap, so the fields keep their own margins and every row is the same distance apart. */}
        <Stack spacing={1.5} useFlexGap sx={{ pt: 1 }}>
          <ErrorList errors={otherErrors} />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              select
              fullWidth
              label={translate('rules.folder_dialog.type')}
              value={values.client_type}
              onChange={(e) => change('client_type')(e.target.value)}
              error={Boolean(errorOf('client_type'))}
              helperText={errorOf('client_type')}
            >
              {CLIENT_TYPES.map((type) => (
                <MenuItem key={type} value={type}>
                  {type}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              fullWidth
              label={translate('rules.folder_dialog.plan')}
              value={values.plan}
              onChange={(e) => change('plan')(e.target.value)}
              error={Boolean(errorOf('plan'))}
              helperText={errorOf('plan')}
            >
              {PLANS.map((plan) => (
                <MenuItem key={plan.value} value={plan.value}>
                  {translate(`rules.plans.${plan.value}`, { _: plan.label })}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          <Stack direction="row" spacing={1} alignItems="flex-start">
            <Autocomplete
              sx={{ flex: 1 }}
              options={options}
              value={selectedAccount}
              onChange={(_event, option) => change('meta_ad_account_id')(option?.ad_account_id ?? '')}
              getOptionLabel={(option) => option.account_name}
              isOptionEqualToValue={(option, value) => option.ad_account_id === value.ad_account_id}
              noOptionsText={translate('rules.folder_dialog.no_accounts')}
              renderOption={({ key, ...props }, option) => (
                <li key={key} {...props}>
                  <Stack>
                    <span>{option.account_name}</span>
                    <Typography variant="caption" color="text.secondary">
                      {option.ad_account_id}
                    </Typography>
                  </Stack>
                </li>
              )}
              renderInput={(params) => (
                <TextField
                  {...params}
                  label={translate('rules.folder_dialog.ad_account')}
                  error={Boolean(errorOf('meta_ad_account_id'))}
                  helperText={errorOf('meta_ad_account_id')}
                />
              )}
            />
            <Tooltip title={translate('rules.folder_dialog.refresh_accounts')}>
              <span>
                <IconButton
                  aria-label={translate('rules.folder_dialog.refresh_accounts')}
                  loading={refreshing}
                  onClick={refresh}
                  sx={{ mt: 1 }}
                >
                  <RefreshIcon />
                </IconButton>
              </span>
            </Tooltip>
          </Stack>
          <TextField
            label={translate('rules.folder_dialog.name')}
            value={values.name}
            onChange={(e) => change('name')(e.target.value)}
            error={Boolean(errorOf('name'))}
            helperText={errorOf('name')}
          />
          <Typography variant="subtitle2" color="text.secondary">
            {translate('rules.folder_dialog.credentials')}
          </Typography>
          {folder?.extension.credentials_error ? (
            <Alert severity="warning">{translate('rules.folder_dialog.credentials_needs_reentry')}</Alert>
          ) : null}
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              fullWidth
              label={translate('rules.folder_dialog.api_key')}
              value={values.api_key}
              autoComplete="off"
              onChange={(e) => change('api_key')(e.target.value)}
              error={Boolean(errorOf('api_key'))}
              helperText={errorOf('api_key')}
            />
            <TextField
              fullWidth
              label={translate('rules.folder_dialog.api_secret')}
              value={values.api_secret}
              autoComplete="off"
              onChange={(e) => change('api_secret')(e.target.value)}
              error={Boolean(errorOf('api_secret'))}
              helperText={errorOf('api_secret')}
            />
          </Stack>
          <TextField
            label={translate('alerts.recipients.label')}
            value={values.alert_emails}
            autoComplete="off"
            multiline
            minRows={1}
            onChange={(e) => change('alert_emails')(e.target.value)}
            error={Boolean(errorOf('alert_emails'))}
            helperText={errorOf('alert_emails') ?? translate('alerts.recipients.help')}
          />
          <BudgetLimitsSection
            draft={limits}
            errors={limitsErrors}
            expanded={limitsOpen}
            onExpand={setLimitsOpen}
            onChange={(next) => {
              setLimits(next);
              setLimitsServerErrors({});
            }}
          />
          {folder ? <LeadOutcomesSection folderId={folder.id} /> : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={saving}>
          {translate('rules.folder_dialog.cancel')}
        </Button>
        <Button variant="contained" onClick={submit} loading={saving}>
          {translate(folder ? 'rules.folder_dialog.update' : 'rules.folder_dialog.create')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
