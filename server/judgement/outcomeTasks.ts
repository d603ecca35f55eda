/**
 * The tasks judged on what an ad's leads became (docs/engine.md, "What a lead became"): cost per
 * attendee, show-up rate and cost per CRM stage, read from the ad's AdQuality. Their maturity is the
 * event, or the stage's window, not hours of delivery: before the ad's first event has happened (no
 * lead past the stage's window) the verdict is "waiting for the event"; with fewer settled
 * registrations (judged leads) than the task's minimum it is "too early"; an ad the outcome stores
 * know nothing of is "no outcome data". Only the outcomes of events that happened count.
 *
 * A show-up rate seen on a few dozen people is partly chance: a task acts only when its line is
 * crossed even at the best rate chance allows (chanceBound.ts); over the line but within chance is
 * still "too early" — more registrants will tell.
 */
import type { Ad } from '../adplatform/types';
import { LEAD_STAGES, type AdQuality, type LeadStage, type QualityByAd } from '../outcomes/quality';
import { isOutcomeTask, OUTCOME_STAGES, type OutcomeTaskName } from '../../shared/ruleCatalog';
import { count, money, percent } from './format';
import type { ObjectMetrics } from './objectMetrics';
import { above, below } from './compare';
import { rateUpperBound } from './chanceBound';

/** The catalogue's stages are the contract's, in the same order (a stage threshold is its place). */
const SAME_STAGES: readonly LeadStage[] = OUTCOME_STAGES satisfies readonly LeadStage[];
if (SAME_STAGES.join() !== LEAD_STAGES.join())
  throw new Error('The rule catalogue and the outcome contract name different stages');

export type OutcomeJudgement =
  | { verdict: 'no_outcome_data' | 'waiting_for_event' | 'too_early' | 'under_threshold' }
  | { verdict: 'acted'; reason: Record<string, string> };

export type OutcomeCheck = (
  metrics: ObjectMetrics,
  quality: AdQuality | undefined,
  thresholds: Record<string, number>,
  currency: string,
) => OutcomeJudgement;

const rawCpl = (m: ObjectMetrics, currency: string) =>
  m.leads > 0 ? money(m.spend / m.leads, currency) : '— (no leads)';

/**
 * The spend that bought the settled registrations: the store's figure (the ad's spend when its last
 * happened event began), else what that many leads cost at the ad's CPL — not its whole spend, part
 * of which bought registrants of events still to come.
 */
function spendOfSettled(m: ObjectMetrics, q: AdQuality): number {
  if (q.settledSpend !== null) return q.settledSpend;
  return m.leads > 0 ? Math.min(m.spend, (m.spend / m.leads) * q.settledRegistrations) : m.spend;
}

const showUp = (q: AdQuality) => `${count(q.attendees)} of ${count(q.settledRegistrations)} registrants attended`;

/** Whether the event-based tasks may judge yet, and if not, why. */
function eventMaturity(q: AdQuality | undefined, minimum: number): OutcomeJudgement | null {
  if (!q) return { verdict: 'no_outcome_data' };
  if (q.eventsHappened === 0 || q.settledRegistrations === 0) return { verdict: 'waiting_for_event' };
  if (q.settledRegistrations < minimum) return { verdict: 'too_early' };
  return null;
}

/**
 * Cost over a count that may be 0: with nothing bought the cost is only over the line when the spend
 * alone is (a single attendee would make the cost the whole spend).
 */
function costOver(spend: number, got: number, threshold: number, currency: string): string | null {
  if (got <= 0)
    return above(spend, threshold) ? `none for ${money(spend, currency)} > ${money(threshold, currency)}` : null;
  const cost = spend / got;
  return above(cost, threshold) ? `${money(cost, currency)} > ${money(threshold, currency)}` : null;
}

/** The lowest cost per success chance allows: the spend over the most successes the count could hide. */
const costAtBest = (spend: number, reached: number, of: number) => spend / (of * rateUpperBound(reached, of));

const atBest = (cost: number, reached: number, of: number, currency: string) =>
  `${money(cost, currency)} at a ${Math.round(rateUpperBound(reached, of) * 100)}% rate, the highest chance allows`;

const costPerAttendee: OutcomeCheck = (m, q, t, c) => {
  const early = eventMaturity(q, t.min_registrations!);
  if (early) return early;
  const spend = spendOfSettled(m, q!);
  const crossed = costOver(spend, q!.attendees, t.cost!, c);
  if (!crossed) return { verdict: 'under_threshold' };
  const best = costAtBest(spend, q!.attendees, q!.settledRegistrations);
  if (!above(best, t.cost!)) return { verdict: 'too_early' };
  return {
    verdict: 'acted',
    reason: {
      'Cost per attendee': crossed,
      CPL: rawCpl(m, c),
      'Show-up': showUp(q!),
      'At best': atBest(best, q!.attendees, q!.settledRegistrations, c),
      'Settled spend': money(spend, c),
    },
  };
};

const showUpRate: OutcomeCheck = (m, q, t, c) => {
  const early = eventMaturity(q, t.min_registrations!);
  if (early) return early;
  const rate = (q!.attendees / q!.settledRegistrations) * 100;
  if (!below(rate, t.rate!)) return { verdict: 'under_threshold' };
  const best = rateUpperBound(q!.attendees, q!.settledRegistrations) * 100;
  if (!below(best, t.rate!)) return { verdict: 'too_early' };
  return {
    verdict: 'acted',
    reason: {
      'Show-up rate': `${percent(rate)} < ${percent(t.rate!)}`,
      'Show-up': showUp(q!),
      'At best': `${Math.round(best)}%, the highest chance allows`,
      CPL: rawCpl(m, c),
    },
  };
};

const costPerStage: OutcomeCheck = (m, q, t, c) => {
  if (!q) return { verdict: 'no_outcome_data' };
  const stage = OUTCOME_STAGES[t.stage!]!;
  const known = q.stages[stage];
  if (!known || known.judged === 0) return { verdict: 'waiting_for_event' };
  if (known.judged < t.min_leads!) return { verdict: 'too_early' };
  // The spend of the leads past the stage's window: the ad's spend in proportion of its leads.
  const spend = m.leads > known.judged ? (m.spend * known.judged) / m.leads : m.spend;
  const crossed = costOver(spend, known.reached, t.cost!, c);
  if (!crossed) return { verdict: 'under_threshold' };
  const best = costAtBest(spend, known.reached, known.judged);
  if (!above(best, t.cost!)) return { verdict: 'too_early' };
  return {
    verdict: 'acted',
    reason: {
      [`Cost per ${stage}`]: crossed,
      CPL: rawCpl(m, c),
      Reached: `${count(known.reached)} ${stage} of ${count(known.judged)} leads past the stage's window`,
      'At best': atBest(best, known.reached, known.judged, c),
      'Spend on those leads': money(spend, c),
    },
  };
};

/** The outcome tasks in catalogue order (after the seven metric tasks). */
export const OUTCOME_CHECKS: [OutcomeTaskName, OutcomeCheck][] = [
  ['cost_per_attendee', costPerAttendee],
  ['show_up_rate', showUpRate],
  ['cost_per_stage', costPerStage],
];

/** The rule has an outcome task switched on: its runs read what the account's leads became. */
export const readsOutcomes = (rule: { rule_task: { name: string; is_active: boolean }[] }) =>
  rule.rule_task.some((task) => task.is_active && isOutcomeTask(task.name));

/** The snapshot with each ad's quality attached (ads the source knows nothing of keep none). */
export function withQuality<S extends { ads: (Ad & { quality?: AdQuality })[] }>(snapshot: S, byAd: QualityByAd): S {
  return { ...snapshot, ads: snapshot.ads.map((ad) => (byAd.has(ad.id) ? { ...ad, quality: byAd.get(ad.id)! } : ad)) };
}
