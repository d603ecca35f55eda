/**
 * The rule editor's "Judging late data" card: maturity, lead-lag allowance, revive, cool-down and
 * the attribution window leads are counted in (src/domain/judging.ts). A window Meta no longer
 * reports, stored before, shows why it cannot judge until another is chosen; a refusal of the
 * server shows under its field. It saves on its own (PATCH {judging}) with its own button, like the
 * Notify only switch: these settings change how the stored rule judges from its next run. A rule
 * made before the settings existed says so, and keeps judging as it did until they are saved.
 */
import { Alert, Button, FormControlLabel, MenuItem, Stack, Switch, TextField, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { HttpError, useDataProvider, useNotify, useTranslate } from 'react-admin';
import { SNACKBAR_TIMEOUT_MS } from '../../../domain/constants';
import {
  ATTRIBUTION_WINDOWS,
  DEFAULT_REVIVE_HOURS,
  NEW_RULE_JUDGING,
  isRemovedWindow,
  judgingEqual,
  judgingPatchSchema,
  type JudgingPatch,
  type RuleJudging,
} from '../../../domain/judging';
import type { RuleDto } from '../../../domain/rules';
import type { AppDataProvider } from '../../../providers/dataProvider';
import { errorMessages } from '../../../providers/httpClient';
import { queryKeys } from '../../../providers/queryKeys';
import { usePermission } from '../../../providers/usePermissions';
import { LeadLagHint } from './LeadLagHint';

type Field = keyof JudgingPatch;
/** What the fields hold: text as typed, so a half-typed number is not rewritten under the cursor. */
type Draft = Record<Field, string> & { lag_on: boolean; revive_on: boolean };

const draftOf = (j: RuleJudging): Draft => ({
  maturity_hours: String(j.maturity_hours),
  maturity_impressions: String(j.maturity_impressions),
  lag_hours: String(j.lag_hours ?? ''),
  revive_hours: String(j.revive_hours ?? DEFAULT_REVIVE_HOURS),
  cooldown_hours: String(j.cooldown_hours),
  attribution_window: j.attribution_window ?? '',
  lag_on: j.lag_hours !== null,
  revive_on: j.revive_hours !== null,
});

const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

function patchOf(draft: Draft): JudgingPatch {
  return {
    maturity_hours: numberOf(draft.maturity_hours),
    maturity_impressions: numberOf(draft.maturity_impressions),
    lag_hours: draft.lag_on ? numberOf(draft.lag_hours) : null,
    revive_hours: draft.revive_on ? numberOf(draft.revive_hours) : null,
    cooldown_hours: numberOf(draft.cooldown_hours),
    // A removed window stays in the draft so the schema names why it cannot be saved.
    attribution_window: (draft.attribution_window || null) as JudgingPatch['attribution_window'],
  };
}

/** `{"judging.attribution_window": ["…"]}`, the server's 400 → field → message. */
function serverErrorsOf(error: unknown): Partial<Record<Field, string>> {
  const body = error instanceof HttpError ? (error.body as Record<string, unknown> | null) : null;
  const errors: Partial<Record<Field, string>> = {};
  for (const [key, value] of Object.entries(body ?? {}))
    if (key.startsWith('judging.')) errors[key.slice('judging.'.length) as Field] = [value].flat().join(' ');
  return errors;
}

/** Field → first message, from the shared schema (the server checks the same). */
function draftErrors(patch: JudgingPatch): Partial<Record<Field, string>> {
  const parsed = judgingPatchSchema.safeParse(patch);
  if (parsed.success) return {};
  const errors: Partial<Record<Field, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as Field;
    errors[field] ??= issue.message;
  }
  return errors;
}

function NumberField(props: {
  label: string;
  value: string;
  error?: string;
  disabled: boolean;
  unit: string;
  onChange: (text: string) => void;
}) {
  return (
    <TextField
      size="small"
      label={props.label}
      value={props.value}
      disabled={props.disabled}
      error={Boolean(props.error)}
      helperText={props.error ?? props.unit}
      onChange={(e) => props.onChange(e.target.value)}
      slotProps={{ htmlInput: { inputMode: 'numeric' } }}
      sx={{ width: 190 }}
    />
  );
}

function Row({ children }: { children: ReactNode }) {
  return (
    <Stack direction="row" spacing={2} alignItems="flex-start" useFlexGap sx={{ flexWrap: 'wrap' }}>
      {children}
    </Stack>
  );
}

export function JudgingSettings({ rule }: { rule: RuleDto }) {
  const translate = useTranslate();
  const notify = useNotify();
  const canChange = usePermission('create_update_rules');
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState(rule.judging);
  const [draft, setDraft] = useState(() => draftOf(rule.judging));
  const [serverErrors, setServerErrors] = useState<Partial<Record<Field, string>>>({});
  const patch = patchOf(draft);
  const errors = { ...serverErrors, ...draftErrors(patch) };
  const changed = !judgingEqual({ ...saved, ...patch, carried_over: saved.carried_over }, saved);
  const save = useMutation({
    mutationFn: () => dataProvider.setRuleJudging(rule.id, patch),
    onSuccess: (answer) => {
      setServerErrors({});
      setSaved(answer.judging);
      setDraft(draftOf(answer.judging));
      notify(translate('judging.saved'), { type: 'success', autoHideDuration: SNACKBAR_TIMEOUT_MS });
      return queryClient.invalidateQueries({ queryKey: queryKeys.rules });
    },
    onError: (error) => {
      setServerErrors(serverErrorsOf(error));
      const text = errorMessages(error).join(' ');
      notify(text, { type: 'error', autoHideDuration: SNACKBAR_TIMEOUT_MS, messageArgs: { _: text } });
    },
  });
  const set = (field: keyof Draft) => (value: string | boolean) => {
    setServerErrors(({ [field as Field]: _edited, ...rest }) => rest);
    setDraft((d) => ({ ...d, [field]: value }));
  };
  const disabled = !canChange || save.isPending;
  const hours = translate('judging.hours');

  return (
    <Stack spacing={2}>
      {saved.carried_over ? (
        <Alert severity="info" role="note">
          {translate('judging.carried_over', {
            hours: NEW_RULE_JUDGING.maturity_hours,
            impressions: NEW_RULE_JUDGING.maturity_impressions.toLocaleString('en-US'),
            cooldown: NEW_RULE_JUDGING.cooldown_hours,
          })}
        </Alert>
      ) : null}
      <Typography variant="subtitle2">{translate('judging.maturity_title')}</Typography>
      <Row>
        <NumberField
          label={translate('judging.maturity_hours')}
          value={draft.maturity_hours}
          error={errors.maturity_hours}
          unit={hours}
          disabled={disabled}
          onChange={set('maturity_hours')}
        />
        <NumberField
          label={translate('judging.maturity_impressions')}
          value={draft.maturity_impressions}
          error={errors.maturity_impressions}
          unit={translate('judging.impressions')}
          disabled={disabled}
          onChange={set('maturity_impressions')}
        />
      </Row>
      <Row>
        <FormControlLabel
          label={translate('judging.lag_on')}
          control={
            <Switch checked={draft.lag_on} disabled={disabled} onChange={(e) => set('lag_on')(e.target.checked)} />
          }
        />
        {draft.lag_on ? (
          <NumberField
            label={translate('judging.lag_hours')}
            value={draft.lag_hours}
            error={errors.lag_hours}
            unit={hours}
            disabled={disabled}
            onChange={set('lag_hours')}
          />
        ) : null}
      </Row>
      <Typography variant="body2" color="text.secondary">
        {translate('judging.lag_scope')}
      </Typography>
      <LeadLagHint
        adAccountId={rule.folder.meta_ad_account?.ad_account_id ?? null}
        onUse={
          canChange ? (suggested) => setDraft((d) => ({ ...d, lag_on: true, lag_hours: String(suggested) })) : undefined
        }
      />
      <Row>
        <FormControlLabel
          label={translate('judging.revive_on')}
          control={
            <Switch
              checked={draft.revive_on}
              disabled={disabled}
              onChange={(e) => set('revive_on')(e.target.checked)}
            />
          }
        />
        {draft.revive_on ? (
          <NumberField
            label={translate('judging.revive_hours')}
            value={draft.revive_hours}
            error={errors.revive_hours}
            unit={hours}
            disabled={disabled}
            onChange={set('revive_hours')}
          />
        ) : null}
      </Row>
      <Row>
        <TextField
          select
          size="small"
          label={translate('judging.attribution_window')}
          value={draft.attribution_window}
          disabled={disabled}
          error={Boolean(errors.attribution_window)}
          helperText={errors.attribution_window ?? translate('judging.attribution_help')}
          onChange={(e) => set('attribution_window')(e.target.value)}
          sx={{ width: 390 }}
        >
          <MenuItem value="">{translate('judging.windows.default')}</MenuItem>
          {ATTRIBUTION_WINDOWS.map((window) => (
            <MenuItem key={window} value={window}>
              {translate(`judging.windows.${window}`)}
            </MenuItem>
          ))}
          {isRemovedWindow(draft.attribution_window) ? (
            <MenuItem value={draft.attribution_window} disabled>
              {translate(`judging.windows.${draft.attribution_window}`)}
            </MenuItem>
          ) : null}
        </TextField>
      </Row>
      <Row>
        <NumberField
          label={translate('judging.cooldown_hours')}
          value={draft.cooldown_hours}
          error={errors.cooldown_hours}
          unit={hours}
          disabled={disabled}
          onChange={set('cooldown_hours')}
        />
      </Row>
      <Stack direction="row">
        <Button
          variant="outlined"
          disabled={disabled || Object.keys(errors).length > 0 || (!changed && !saved.carried_over)}
          loading={save.isPending}
          onClick={() => save.mutate()}
        >
          {translate(saved.carried_over && !changed ? 'judging.adopt' : 'judging.save')}
        </Button>
      </Stack>
    </Stack>
  );
}
