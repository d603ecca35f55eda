/**
 * The folder dialog's Budget limits (docs/engine.md, "Budget changes"), folded by default: the
 * largest growth of a daily budget in 24 hours and in 7 days, the size of a significant change and
 * the hours to settle after one, and the daily increase a run may add before it waits for approval
 * (with a switch to have no such limit). Values are kept as typed and checked with the shared schema.
 */
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import {
  Accordion,
  AccordionDetails,
  AccordionSummary,
  FormControlLabel,
  InputAdornment,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { useTranslate } from 'react-admin';
import { budgetLimitsSchema, readBudgetLimits, type BudgetLimits } from '../../../shared/budgetLimits';

const WHOLE_FIELDS = ['growth_24h_pct', 'growth_7d_pct', 'significant_pct', 'settle_hours'] as const;
type WholeField = (typeof WHOLE_FIELDS)[number];

export interface LimitsDraft extends Record<WholeField, string> {
  daily_increase_limit: string;
  /** Off: no run waits for approval whatever it adds (null). */
  daily_increase_on: boolean;
}

export function limitsDraftOf(stored: Partial<BudgetLimits> | null | undefined): LimitsDraft {
  const limits = readBudgetLimits(stored);
  return {
    growth_24h_pct: String(limits.growth_24h_pct),
    growth_7d_pct: String(limits.growth_7d_pct),
    significant_pct: String(limits.significant_pct),
    settle_hours: String(limits.settle_hours),
    daily_increase_limit: limits.daily_increase_limit === null ? '' : String(limits.daily_increase_limit),
    daily_increase_on: limits.daily_increase_limit !== null,
  };
}

const numberOf = (value: string) => (value.trim() === '' ? Number.NaN : Number(value.trim()));

export function limitsOf(draft: LimitsDraft): BudgetLimits {
  return {
    growth_24h_pct: numberOf(draft.growth_24h_pct),
    growth_7d_pct: numberOf(draft.growth_7d_pct),
    significant_pct: numberOf(draft.significant_pct),
    settle_hours: numberOf(draft.settle_hours),
    daily_increase_limit: draft.daily_increase_on ? numberOf(draft.daily_increase_limit) : null,
  };
}

/** Field → message, from the shared schema. */
export function limitsErrorsOf(draft: LimitsDraft): Record<string, string> {
  const result = budgetLimitsSchema.safeParse(limitsOf(draft));
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? 'growth_24h_pct');
    errors[field] ??= issue.message;
  }
  return errors;
}

/** `{"budget_limits.settle_hours": [...]}` or `{budget_limits: {settle_hours: [...]}}` → field → message. */
export function limitsServerErrorsOf(body: Record<string, unknown> | undefined): Record<string, string> {
  const errors: Record<string, string> = {};
  const text = (v: unknown) => (Array.isArray(v) ? v.join(' ') : typeof v === 'string' ? v : '');
  for (const [key, value] of Object.entries(body ?? {})) {
    if (key.startsWith('budget_limits.')) errors[key.slice('budget_limits.'.length)] = text(value);
    else if (key === 'budget_limits' && value && typeof value === 'object' && !Array.isArray(value))
      for (const [field, inner] of Object.entries(value)) errors[field] = text(inner);
    else if (key === 'budget_limits') errors.growth_24h_pct = text(value);
  }
  return errors;
}

export function BudgetLimitsSection({
  draft,
  errors,
  expanded,
  onExpand,
  onChange,
}: {
  draft: LimitsDraft;
  errors: Record<string, string>;
  expanded: boolean;
  onExpand: (expanded: boolean) => void;
  onChange: (next: LimitsDraft) => void;
}) {
  const translate = useTranslate();
  const t = (key: string) => translate(`budgets.limits.${key}`);
  const help: Partial<Record<WholeField, string>> = {
    significant_pct: t('significant_help'),
    settle_hours: t('settle_help'),
  };
  return (
    <Accordion
      variant="outlined"
      disableGutters
      expanded={expanded}
      onChange={(_event, open) => onExpand(open)}
      slotProps={{ transition: { unmountOnExit: true } }}
    >
      <AccordionSummary expandIcon={<ExpandMoreIcon />} aria-controls="budget-limits-content" id="budget-limits-header">
        <Typography variant="subtitle2">{t('title')}</Typography>
      </AccordionSummary>
      <AccordionDetails id="budget-limits-content">
        <Stack spacing={1.5} useFlexGap>
          <Typography variant="body2" color="text.secondary">
            {t('help')}
          </Typography>
          <Stack direction="row" spacing={2} useFlexGap flexWrap="wrap">
            {WHOLE_FIELDS.map((field) => (
              <TextField
                key={field}
                size="small"
                label={t(field)}
                value={draft[field]}
                onChange={(e) => onChange({ ...draft, [field]: e.target.value })}
                error={Boolean(errors[field])}
                helperText={errors[field] ?? help[field]}
                slotProps={{
                  htmlInput: { inputMode: 'numeric' },
                  input: {
                    endAdornment: (
                      <InputAdornment position="end">{field === 'settle_hours' ? 'h' : '%'}</InputAdornment>
                    ),
                  },
                }}
                // Two a row in the dialog: three left the fourth alone, under a row made tall by a helper text.
                sx={{ flex: '1 1 220px' }}
              />
            ))}
          </Stack>
          <Stack direction="row" spacing={2} useFlexGap flexWrap="wrap" alignItems="flex-start">
            <FormControlLabel
              control={
                <Switch
                  checked={draft.daily_increase_on}
                  onChange={(e) => onChange({ ...draft, daily_increase_on: e.target.checked })}
                />
              }
              label={t('daily_increase_on')}
              sx={{ flex: '1 1 200px' }}
            />
            <TextField
              size="small"
              label={t('daily_increase_limit')}
              value={draft.daily_increase_limit}
              disabled={!draft.daily_increase_on}
              onChange={(e) => onChange({ ...draft, daily_increase_limit: e.target.value })}
              error={Boolean(errors.daily_increase_limit)}
              helperText={errors.daily_increase_limit ?? t('daily_increase_help')}
              slotProps={{
                htmlInput: { inputMode: 'decimal' },
                input: { startAdornment: <InputAdornment position="start">$</InputAdornment> },
              }}
              sx={{ flex: '1 1 200px' }}
            />
          </Stack>
        </Stack>
      </AccordionDetails>
    </Accordion>
  );
}
