/**
 * The rule as the API answers it with conditions (docs/api.md): `conditions`, `action`, and its
 * folder's `budget_limits`, optional so an answer without them reads as a rule without conditions
 * under the default limits.
 */
import { readBudgetLimits, type BudgetLimits } from '../../../../shared/budgetLimits';
import type { RuleAction } from '../../../../shared/ruleActions';
import type { ConditionGroup } from '../../../../shared/ruleConditions';
import type { RuleDto } from '../../../../shared/rules';

export type RuleWithConditions = RuleDto & {
  conditions?: ConditionGroup | null;
  action?: RuleAction | null;
  folder: RuleDto['folder'] & { budget_limits?: Partial<BudgetLimits> | null };
};

export const folderLimitsOf = (rule: RuleDto): BudgetLimits =>
  readBudgetLimits((rule as RuleWithConditions).folder.budget_limits);
