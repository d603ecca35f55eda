/**
 * A folder's budget limits in the folder API: a payload's limits merged over the stored ones (the
 * defaults for those never set) and checked whole, and their audit text.
 */
import { budgetLimitsSchema, readBudgetLimits, type BudgetLimits } from '../../shared/budgetLimits';
import type { FieldErrors } from '../../shared/validation';
import { ValidationError } from '../http/errors';

/** The limits to store: the stored ones with the payload's over them; 400 under `budget_limits.<limit>` when the whole breaks a rule. */
export function mergeBudgetLimits(stored: unknown, patch: Partial<BudgetLimits>): BudgetLimits {
  const merged = { ...readBudgetLimits(stored), ...patch };
  const checked = budgetLimitsSchema.safeParse(merged);
  if (checked.success) return checked.data;
  const errors: FieldErrors = {};
  for (const issue of checked.error.issues) {
    const field = ['budget_limits', ...issue.path].join('.');
    errors[field] = [...(errors[field] ?? []), issue.message];
  }
  throw new ValidationError(errors);
}

const percent = (n: number) => `${n}%`;
const money = (n: number | null) =>
  n === null ? 'none' : `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

const LIMIT_TEXT: { [K in keyof BudgetLimits]: [label: string, show: (v: BudgetLimits[K]) => string] } = {
  growth_24h_pct: ['24 h growth', percent],
  growth_7d_pct: ['7 d growth', percent],
  significant_pct: ['significant change', percent],
  settle_hours: ['settle time', (n) => `${n} h`],
  daily_increase_limit: ['daily increase limit', money],
};

/** "Budget limits: 24 h growth 50% → 40%, settle time 72 h → 48 h"; '' when none moved. */
export function budgetLimitsChangesText(before: BudgetLimits, after: BudgetLimits): string {
  const parts = (Object.keys(LIMIT_TEXT) as (keyof BudgetLimits)[]).flatMap((key) => {
    const [label, show] = LIMIT_TEXT[key] as [string, (v: unknown) => string];
    const [old, now] = [show(before[key]), show(after[key])];
    return old === now ? [] : [`${label} ${old} → ${now}`];
  });
  return parts.length ? `Budget limits: ${parts.join(', ')}` : '';
}
