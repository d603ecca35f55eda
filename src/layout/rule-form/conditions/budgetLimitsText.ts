/** The folder's budget limits as one sentence, shown read-only under a budget action. Pure. */
import { META_BUDGET_CHANGES_PER_HOUR, type BudgetLimits } from '../../../../shared/budgetLimits';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** 1000 → '$1,000', 12.5 → '$12.50': whole amounts without cents. */
export function formatAmount(value: number): string {
  const whole = Number.isInteger(value);
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: whole ? 0 : 2,
  }).format(value);
}

export function budgetLimitsText(limits: BudgetLimits, translate: Translate): string {
  return translate('budgets.limits.summary', {
    growth_24h: limits.growth_24h_pct,
    growth_7d: limits.growth_7d_pct,
    significant: limits.significant_pct,
    settle: limits.settle_hours,
    meta: META_BUDGET_CHANGES_PER_HOUR + 1,
    approval:
      limits.daily_increase_limit === null
        ? translate('budgets.limits.no_approval')
        : translate('budgets.limits.approval', { amount: formatAmount(limits.daily_increase_limit) }),
  });
}
