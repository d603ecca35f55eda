/**
 * The rule editor's Action section: what the rule does where its conditions hold — turn off or on
 * (ads or campaigns), raise or lower a daily budget (ad sets or campaigns) by a percentage or to an
 * amount, between an optional floor and ceiling — and, under a budget action, the folder's budget
 * limits, read-only: whatever the rule asks, those cut it.
 */
import { Alert, FormHelperText, InputAdornment, MenuItem, Stack, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { BudgetLimits } from '../../../../shared/budgetLimits';
import {
  ACTION_KINDS,
  ACTION_LEVELS,
  isBudgetAction,
  type ActionKind,
  type ActionLevel,
} from '../../../../shared/ruleActions';
import { budgetLimitsText } from './budgetLimitsText';
import { withKind, type ActionDraft, type FieldErrors } from './conditionDraft';

const fieldSx = (least: number) => ({ flex: `1 1 ${least}px`, minWidth: least });
const dollars = { startAdornment: <InputAdornment position="start">$</InputAdornment> };

function AmountField({
  label,
  value,
  error,
  percent = false,
  onChange,
}: {
  label: string;
  value: string;
  error?: string;
  percent?: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <TextField
      size="small"
      label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={Boolean(error)}
      helperText={error}
      slotProps={{
        htmlInput: { inputMode: 'decimal' },
        input: percent ? { endAdornment: <InputAdornment position="end">%</InputAdornment> } : dollars,
      }}
      sx={fieldSx(120)}
    />
  );
}

export function ActionSection({
  action,
  limits,
  errors,
  onChange,
}: {
  action: ActionDraft;
  /** The rule's folder's budget limits. */
  limits: BudgetLimits;
  errors: FieldErrors;
  onChange: (next: ActionDraft) => void;
}) {
  const translate = useTranslate();
  const budget = isBudgetAction(action.kind);
  const set = (field: keyof ActionDraft) => (value: string) => onChange({ ...action, [field]: value });
  const changeError = errors['action.change'];
  return (
    <Stack spacing={1.5}>
      {errors.action ? <FormHelperText error>{errors.action}</FormHelperText> : null}
      <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap" alignItems="flex-start">
        <TextField
          select
          size="small"
          label={translate('conditions.action.kind')}
          value={action.kind}
          onChange={(e) => onChange(withKind(action, e.target.value as ActionKind))}
          error={Boolean(errors['action.kind'])}
          helperText={errors['action.kind']}
          sx={fieldSx(150)}
        >
          {ACTION_KINDS.map((kind) => (
            <MenuItem key={kind} value={kind}>
              {translate(`conditions.action.kinds.${kind}`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={translate('conditions.action.level')}
          value={action.level}
          onChange={(e) => onChange({ ...action, level: e.target.value as ActionLevel })}
          error={Boolean(errors['action.level'])}
          helperText={
            errors['action.level'] ??
            (budget && action.level === 'campaign' ? translate('conditions.action.campaign_budget') : undefined)
          }
          sx={fieldSx(130)}
        >
          {ACTION_LEVELS[action.kind].map((level) => (
            <MenuItem key={level} value={level}>
              {translate(`conditions.action.levels.${level}`)}
            </MenuItem>
          ))}
        </TextField>
        {budget ? (
          <>
            <TextField
              select
              size="small"
              label={translate('conditions.action.by')}
              value={action.by}
              onChange={(e) => onChange({ ...action, by: e.target.value as ActionDraft['by'] })}
              sx={fieldSx(160)}
            >
              {(['percent', 'amount'] as const).map((by) => (
                <MenuItem key={by} value={by}>
                  {translate(`conditions.action.by_options.${by}`)}
                </MenuItem>
              ))}
            </TextField>
            {action.by === 'percent' ? (
              <AmountField
                percent
                label={translate('conditions.action.percent')}
                value={action.percent}
                error={errors['action.change.percent'] ?? changeError}
                onChange={set('percent')}
              />
            ) : (
              <AmountField
                label={translate('conditions.action.amount')}
                value={action.amount}
                error={errors['action.change.to_amount'] ?? changeError}
                onChange={set('amount')}
              />
            )}
            <AmountField
              label={translate('conditions.action.floor')}
              value={action.floor}
              error={errors['action.floor']}
              onChange={set('floor')}
            />
            <AmountField
              label={translate('conditions.action.ceiling')}
              value={action.ceiling}
              error={errors['action.ceiling']}
              onChange={set('ceiling')}
            />
          </>
        ) : changeError ? (
          <FormHelperText error>{changeError}</FormHelperText>
        ) : null}
      </Stack>
      {budget ? (
        <Alert severity="info" data-testid="budget-limits">
          {budgetLimitsText(limits, translate)}
        </Alert>
      ) : null}
    </Stack>
  );
}
