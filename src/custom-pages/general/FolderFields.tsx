/**
 * The folder dialog's groups of fields: Type and Plan, the ad account (with its refresh from the ad
 * platform) and the webinar-service credentials. Each shows a field's error under it.
 */
import RefreshIcon from '@mui/icons-material/Refresh';
import { Alert, Autocomplete, IconButton, MenuItem, Stack, TextField, Tooltip, Typography } from '@mui/material';
import { useMemo } from 'react';
import { useTranslate } from 'react-admin';
import { CLIENT_TYPES, PLANS } from '../../../shared/constants';
import type { FolderDto } from '../../../shared/folders';
import type { FolderForm } from './useFolderForm';

interface FieldsProps {
  form: FolderForm;
}

export function TypeAndPlanFields({ form }: FieldsProps) {
  const translate = useTranslate();
  const { values, errorOf, change } = form;
  return (
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
  );
}

export function AdAccountField({ form, folder }: FieldsProps & { folder: FolderDto | null }) {
  const translate = useTranslate();
  const { values, errorOf, change } = form;
  const { accounts, refresh, refreshing } = form.adAccounts;
  // The chosen account may not be in the list (e.g. no longer synced): keep it selectable.
  const options = useMemo(() => {
    const current = folder?.meta_ad_account;
    return current && !accounts.some((a) => a.ad_account_id === current.ad_account_id)
      ? [...accounts, { ad_account_id: current.ad_account_id, account_name: current.account_name }]
      : accounts;
  }, [accounts, folder]);
  const selectedAccount = options.find((a) => a.ad_account_id === values.meta_ad_account_id) ?? null;
  return (
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
  );
}

/** The webinar service's key and secret, with a warning when the stored ones need re-entry. */
export function CredentialsFields({ form, folder }: FieldsProps & { folder: FolderDto | null }) {
  const translate = useTranslate();
  const { values, errorOf, change } = form;
  return (
    <>
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
    </>
  );
}
