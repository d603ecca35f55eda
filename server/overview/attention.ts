/**
 * Why a folder needs a person, and the overview's order (docs/api.md, "Agency overview"): held runs
 * waiting and health problems first, then a cost per lead over the folder's lowest CPL threshold,
 * then spend with no leads, then the rest; within each, the biggest spender today first.
 */
import { ATTENTION_SCORES, type AttentionReason, type OverviewPeriod, type OverviewRow } from '../../shared/overview';
import type { HealthProblemDto } from '../../shared/health';

export interface FolderFigures {
  today: OverviewPeriod;
  week: OverviewPeriod;
  /** The lowest CPL threshold of the folder's active rules. */
  cplThreshold: number | null;
  /** The lowest spend of the folder's active "spend with no leads" tasks. */
  noLeadsSpend: number | null;
  held: { count: number; budgetAdded: number | null };
  health: HealthProblemDto[];
}

type Period = 'today' | 'week';
const PERIODS: Period[] = ['today', 'week'];

/** The first period whose CPL is over the threshold (today's before the week's). */
function cplOver(figures: FolderFigures): AttentionReason | null {
  const threshold = figures.cplThreshold;
  if (threshold === null) return null;
  for (const period of PERIODS) {
    const { cpl } = figures[period];
    if (cpl !== null && cpl > threshold) return { kind: 'cpl_over', period, cpl, threshold };
  }
  return null;
}

/**
 * Spend with no lead: at least what the folder's own no-leads task allows (else its CPL threshold,
 * else any spend), today first, else over the 7 days.
 */
function spendNoLeads(figures: FolderFigures): AttentionReason | null {
  const floor = figures.noLeadsSpend ?? figures.cplThreshold ?? 0;
  for (const period of PERIODS) {
    const { spend, leads } = figures[period];
    if (spend !== null && spend > 0 && spend >= floor && leads === 0) return { kind: 'spend_no_leads', period, spend };
  }
  return null;
}

/** The reasons, most urgent first, and the score of the most urgent (warnings are shown, never scored). */
export function attentionOf(figures: FolderFigures): OverviewRow['needs_attention'] {
  const reasons: AttentionReason[] = [];
  if (figures.held.count > 0)
    reasons.push({ kind: 'held_runs', count: figures.held.count, budget_added: figures.held.budgetAdded });
  const problems = figures.health.filter((p) => p.state === 'problem');
  const warnings = figures.health.filter((p) => p.state === 'warning');
  for (const p of problems) reasons.push({ kind: 'health', check: p.check, state: p.state, detail: p.detail });
  const cpl = cplOver(figures);
  if (cpl) reasons.push(cpl);
  const noLeads = spendNoLeads(figures);
  if (noLeads) reasons.push(noLeads);
  for (const p of warnings) reasons.push({ kind: 'health', check: p.check, state: p.state, detail: p.detail });
  const score = Math.max(
    0,
    ...reasons.map((reason) =>
      reason.kind === 'health' && reason.state === 'warning' ? 0 : ATTENTION_SCORES[reason.kind],
    ),
  );
  return { score, reasons };
}

const spendOf = (period: OverviewPeriod) => period.spend ?? -1;

/** Needs a person first; then the biggest spender today, then over the 7 days; then by name. */
export function byNeed(a: OverviewRow, b: OverviewRow): number {
  return (
    b.needs_attention.score - a.needs_attention.score ||
    spendOf(b.today) - spendOf(a.today) ||
    spendOf(b.week) - spendOf(a.week) ||
    a.folder.name.localeCompare(b.folder.name) ||
    a.folder.id - b.folder.id
  );
}
