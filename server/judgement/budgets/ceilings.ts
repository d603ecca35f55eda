/**
 * The folder's ceilings on budget growth (docs/engine.md, "Budget changes"; shared/
 * budgetLimits.ts), applied to one planned change with every change of the object that came before
 * it — whichever rule made it, done or still pending — so several rules' raises add up:
 * - a raise may not take the budget past the budget in force 24 hours ago plus growth_24h_pct, nor
 *   the one of 7 days ago plus growth_7d_pct;
 * - a significant raise (significant_pct or more) is cut to just under significant while the object
 *   is learning, or within settle_hours of its last significant change;
 * - no fifth change within a rolling hour (Meta's limit, raises and lowers alike).
 * Lowering is held back by the changes per hour only: a ceiling never keeps money flowing to what a
 * rule found too dear. A decision allowing `before` means the change is not made.
 */
import { META_BUDGET_CHANGES_PER_HOUR, type BudgetLimits } from '../../../shared/budgetLimits';
import type { BudgetChangeRecord, BudgetDecision, BudgetObject, CeilingName } from './types';

const HOUR = 3_600_000;

export interface CeilingsInput {
  object: BudgetObject;
  /** Cents a day now, and what the rule asks (within its own bounds: plan.ts). */
  before: number;
  asked: number;
  /** This object's changes, any rule, done or pending, newest last. */
  history: readonly BudgetChangeRecord[];
  limits: BudgetLimits;
  now: Date;
  /** Let a significant raise through while Meta reports the object learning (the settling hours still hold). */
  significantRaiseInLearning?: boolean;
}

/** Meta's learning_stage_info.status while an ad set is learning. */
const LEARNING = 'LEARNING';

/** The budget in force at a past moment: what the first change after it started from, else today's. */
export function budgetAt(moment: number, history: readonly BudgetChangeRecord[], current: number): number {
  const after = history.filter((change) => change.at.getTime() > moment);
  if (!after.length) return current;
  return after.reduce((first, change) => (change.at < first.at ? change : first)).before;
}

/**
 * The lowest daily budget in force from a past moment to now: growth is counted from it, so a
 * budget lowered and raised again within the window grows no more than from where it started.
 */
export function lowestSince(moment: number, history: readonly BudgetChangeRecord[], current: number): number {
  const within = history.filter((change) => change.at.getTime() > moment);
  return Math.min(budgetAt(moment, history, current), current, ...within.map((change) => change.after));
}

/** At least significant_pct of `before`, either way (Meta restarts learning on a large cut too). */
const isSignificant = (before: number, after: number, limits: BudgetLimits) =>
  Math.abs(after - before) * 100 >= limits.significant_pct * before;

/** The largest budget a raise from `before` may reach without being significant. */
const justUnderSignificant = (before: number, limits: BudgetLimits) =>
  Math.floor((before * (100 + limits.significant_pct) - 1) / 100);

/** "+20%", "−8%": the change over `before`, whole percent toward zero (19.99% is not shown as 20%). */
function changeText(before: number, after: number): string {
  const tenths = Math.trunc(((after - before) * 1000) / before);
  const whole = Math.trunc(tenths / 10);
  const shown = whole !== 0 ? String(Math.abs(whole)) : (Math.abs(tenths) / 10).toFixed(1);
  return `${after < before ? '−' : '+'}${shown}%`;
}

function cutText(before: number, asked: number, allowed: number, reason: string): string {
  const allowedText = allowed === before ? 'none' : changeText(before, allowed);
  return `${changeText(before, asked)} asked, ${allowedText} allowed: ${reason}`;
}

const hoursText = (ms: number) => `${Math.max(1, Math.round(ms / HOUR))} h`;

interface Held {
  allowed: number;
  cut: { by: CeilingName; reason: string } | null;
}

/** A raise held at `ceiling` when that is lower than what is allowed so far (never under `before`). */
function holdAt(held: Held, before: number, ceiling: number, by: CeilingName, reason: string): Held {
  return ceiling < held.allowed ? { allowed: Math.max(before, ceiling), cut: { by, reason } } : held;
}

/** Milliseconds since the object's last significant change up to `at`; null when none. */
function sinceLastSignificant(history: readonly BudgetChangeRecord[], at: number, limits: BudgetLimits): number | null {
  const times = history
    .filter((change) => change.at.getTime() <= at && isSignificant(change.before, change.after, limits))
    .map((change) => change.at.getTime());
  return times.length ? at - Math.max(...times) : null;
}

/** The change a rule asked, as the folder's ceilings and Meta's limits allow it. */
export function applyCeilings(input: CeilingsInput): BudgetDecision {
  const { object, before, asked, history, limits, now } = input;
  const decision = (allowed: number, cutBy: CeilingName | null, reason: string | null): BudgetDecision => ({
    objectId: object.id,
    level: object.level,
    before,
    asked,
    allowed,
    cutBy,
    cutText: cutBy && reason ? cutText(before, asked, allowed, reason) : null,
  });
  if (asked === before) return decision(before, null, null);

  const at = now.getTime();
  const lastHour = history.filter((change) => change.at.getTime() > at - HOUR && change.at.getTime() <= at).length;
  if (lastHour >= META_BUDGET_CHANGES_PER_HOUR)
    return decision(before, 'changes_per_hour', `${lastHour} budget changes in the last hour (Meta's limit)`);
  if (asked < before) return decision(asked, null, null);

  const growth = (days: number, pct: number) =>
    Math.floor((lowestSince(at - days * 24 * HOUR, history, before) * (100 + pct)) / 100);
  let held: Held = { allowed: asked, cut: null };
  held = holdAt(held, before, growth(1, limits.growth_24h_pct), 'growth_24h', '24 h ceiling');
  held = holdAt(held, before, growth(7, limits.growth_7d_pct), 'growth_7d', '7-day ceiling');
  // While learning, and while settling after a significant change, the budget stays under a
  // significant rise from where it stood — the lowest of the settling hours while learning, the budget
  // the significant change left since — not only this step: 19 % an hour would compound past it.
  const sinceLast = sinceLastSignificant(history, at, limits);
  const learning = object.learningStage === LEARNING && !input.significantRaiseInLearning;
  const settling = sinceLast !== null && sinceLast < limits.settle_hours * HOUR;
  const base = learning
    ? lowestSince(at - limits.settle_hours * HOUR, history, before)
    : settling
      ? lowestSince(at - sinceLast!, history, before)
      : before;
  if (isSignificant(base, held.allowed, limits)) {
    const underSignificant = justUnderSignificant(base, limits);
    if (learning) held = holdAt(held, before, underSignificant, 'learning', 'learning');
    else if (settling)
      held = holdAt(
        held,
        before,
        underSignificant,
        'settling',
        `settling (a significant change ${hoursText(sinceLast!)} ago)`,
      );
  }
  return decision(held.allowed, held.cut?.by ?? null, held.cut?.reason ?? null);
}
