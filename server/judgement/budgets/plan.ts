/**
 * What daily budget a rule's budget action asks for one ad set or campaign (docs/engine.md,
 * "Budget changes"), before the folder's ceilings (ceilings.ts) have their say: up or down by a percentage
 * (whole cents), or to an amount, held within the rule's floor and ceiling and never under Meta's
 * minimum daily budget. What it cannot change it refuses with the reason a user reads — a lifetime
 * budget is never guessed at, and a budget held one level up or down is named there.
 */
import type { RuleAction } from '../../../shared/ruleActions';
import { money } from '../format';
import type { BudgetObject, CeilingName } from './types';

/** Meta's smallest daily budget the product sets, in cents. */
export const META_MINIMUM_DAILY_BUDGET = 100;

export type BoundName = Extract<CeilingName, 'rule_ceiling' | 'rule_floor' | 'minimum'>;

export type AskedBudget =
  | {
      /** Cents a day the rule asks, within its bounds. */
      asked: number;
      /** What the change alone came to, before the bounds. */
      wanted: number;
      /** The bound that cut the change, when one did. */
      cutBy: BoundName | null;
      /** "$600.00/day asked, $500.00/day: the rule's ceiling". */
      boundText: string | null;
    }
  | { refused: string };

export const REFUSALS = {
  notBudget: 'Not a budget action',
  lifetime: 'Lifetime budget: this rule changes daily budgets only; change a lifetime budget by hand',
  campaignBudget: 'The campaign holds the budget (campaign budget): act on the campaign',
  adsetBudgets: 'Its ad sets hold the budgets: act on the ad sets',
  nothing: 'Nothing to change',
} as const;

const cents = (amount: number) => Math.round(amount * 100);
const perDay = (amountCents: number, currency: string) => `${money(amountCents / 100, currency)}/day`;

const BOUND_TEXT: Record<BoundName, string> = {
  rule_ceiling: "the rule's ceiling",
  rule_floor: "the rule's floor",
  minimum: "Meta's minimum daily budget",
};

/** What the change alone asks, before any bound; a refusal when it asks nothing of this budget. */
function wantedBudget(action: RuleAction, before: number, currency: string): number | { refused: string } {
  const raising = action.kind === 'raise_budget';
  const { percent, to_amount } = action.change ?? {};
  if (percent !== undefined) return Math.round((before * (100 + (raising ? percent : -percent))) / 100);
  if (to_amount === undefined) return { refused: REFUSALS.nothing };
  const target = cents(to_amount);
  if (raising && target <= before) return { refused: `Already at or above ${perDay(target, currency)}` };
  if (!raising && target >= before) return { refused: `Already at or below ${perDay(target, currency)}` };
  return target;
}

/** The daily budget (cents) the rule asks of `current`, or why it asks nothing. */
export function askedBudget(action: RuleAction, current: BudgetObject, currency = 'USD'): AskedBudget {
  if (action.kind !== 'raise_budget' && action.kind !== 'lower_budget') return { refused: REFUSALS.notBudget };
  const before = current.dailyBudget;
  if (before === null) {
    if (current.lifetimeBudget !== null) return { refused: REFUSALS.lifetime };
    return { refused: current.level === 'adset' ? REFUSALS.campaignBudget : REFUSALS.adsetBudgets };
  }
  const wanted = wantedBudget(action, before, currency);
  if (typeof wanted !== 'number') return wanted;

  const raising = action.kind === 'raise_budget';
  let asked = wanted;
  let cutBy: BoundName | null = null;
  if (raising && action.ceiling != null && asked > cents(action.ceiling)) {
    asked = cents(action.ceiling);
    cutBy = 'rule_ceiling';
  }
  if (!raising && action.floor != null && asked < cents(action.floor)) {
    asked = cents(action.floor);
    cutBy = 'rule_floor';
  }
  if (asked < META_MINIMUM_DAILY_BUDGET) {
    asked = META_MINIMUM_DAILY_BUDGET;
    cutBy = 'minimum';
  }
  // Held by its bound at (or past) where it already is: nothing to ask.
  if (raising ? asked <= before : asked >= before) {
    if (cutBy === null) return { refused: REFUSALS.nothing };
    const where = raising ? 'at or above' : 'at or below';
    return { refused: `Already ${where} ${BOUND_TEXT[cutBy]} (${perDay(asked, currency)})` };
  }
  const boundText = cutBy && `${perDay(wanted, currency)} asked, ${perDay(asked, currency)}: ${BOUND_TEXT[cutBy]}`;
  return { asked, wanted, cutBy, boundText };
}
