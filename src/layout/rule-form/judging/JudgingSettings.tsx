/**
 * The rule editor's "Judging late data" card: maturity, lead-lag allowance, revive, cool-down and
 * the attribution window leads are counted in (shared/judging.ts). Part of the editor's form:
 * its changes count as unsaved changes and go with the rule's one Save (judgingDraft.ts); a field's
 * error shows once the field is touched. A window Meta no longer reports, stored before, shows why
 * it cannot judge until another is chosen. A rule made before the settings existed says so, and
 * keeps judging as it did until they are saved with it.
 */
import { Alert, Button, FormControlLabel, MenuItem, Stack, Switch, TextField, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { ATTRIBUTION_WINDOWS, NEW_RULE_JUDGING, isRemovedWindow } from '../../../../shared/judging';
import { LeadLagHint } from './LeadLagHint';
import type { JudgingDraft, JudgingErrors, JudgingField } from './judgingDraft';

function NumberField(props: {
  label: string;
  value: string;
  error?: string;
  disabled: boolean;
  unit: string;
  onChange: (text: string) => void;
  onBlur: () => void;
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
      onBlur={props.onBlur}
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

export interface JudgingSettingsProps {
  adAccountId: string | null;
  /** The stored rule predates the settings (and they are not yet saved as its own). */
  carriedOver: boolean;
  draft: JudgingDraft;
  /** The errors to show: the touched fields' and the server's. */
  errors: JudgingErrors;
  disabled: boolean;
  onChange: (next: Partial<JudgingDraft>, field?: JudgingField) => void;
  /** A field was left: its error may show now. */
  onTouch: (field: JudgingField) => void;
}

export function JudgingSettings({
  adAccountId,
  carriedOver,
  draft,
  errors,
  disabled,
  onChange,
  onTouch,
}: JudgingSettingsProps) {
  const translate = useTranslate();
  const hours = translate('judging.hours');
  const number = (field: JudgingField, label: string, unit = hours) => (
    <NumberField
      label={label}
      value={draft[field]}
      error={errors[field]}
      unit={unit}
      disabled={disabled}
      onChange={(text) => onChange({ [field]: text }, field)}
      onBlur={() => onTouch(field)}
    />
  );

  return (
    <Stack spacing={2}>
      {carriedOver ? (
        <Alert
          severity="info"
          role="note"
          action={
            draft.adopt || disabled ? undefined : (
              <Button color="inherit" size="small" onClick={() => onChange({ adopt: true })}>
                {translate('judging.adopt')}
              </Button>
            )
          }
        >
          {translate(draft.adopt ? 'judging.adopting' : 'judging.carried_over', {
            hours: NEW_RULE_JUDGING.maturity_hours,
            impressions: NEW_RULE_JUDGING.maturity_impressions.toLocaleString('en-US'),
            cooldown: NEW_RULE_JUDGING.cooldown_hours,
          })}
        </Alert>
      ) : null}
      <Typography variant="subtitle2">{translate('judging.maturity_title')}</Typography>
      <Row>
        {number('maturity_hours', translate('judging.maturity_hours'))}
        {number('maturity_impressions', translate('judging.maturity_impressions'), translate('judging.impressions'))}
      </Row>
      <Row>
        <FormControlLabel
          label={translate('judging.lag_on')}
          control={
            <Switch
              checked={draft.lag_on}
              disabled={disabled}
              onChange={(e) => onChange({ lag_on: e.target.checked })}
            />
          }
        />
        {draft.lag_on ? number('lag_hours', translate('judging.lag_hours')) : null}
      </Row>
      <Typography variant="body2" color="text.secondary">
        {translate('judging.lag_scope')}
      </Typography>
      <LeadLagHint
        adAccountId={adAccountId}
        onUse={
          disabled ? undefined : (suggested) => onChange({ lag_on: true, lag_hours: String(suggested) }, 'lag_hours')
        }
      />
      <Row>
        <FormControlLabel
          label={translate('judging.revive_on')}
          control={
            <Switch
              checked={draft.revive_on}
              disabled={disabled}
              onChange={(e) => onChange({ revive_on: e.target.checked })}
            />
          }
        />
        {draft.revive_on ? number('revive_hours', translate('judging.revive_hours')) : null}
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
          onChange={(e) => onChange({ attribution_window: e.target.value }, 'attribution_window')}
          // Meta's default is the empty value: shown as its words, not as an empty field.
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          sx={{ width: 390, maxWidth: '100%' }}
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
      <Row>{number('cooldown_hours', translate('judging.cooldown_hours'))}</Row>
    </Stack>
  );
}
