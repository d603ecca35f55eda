/** How the Runs panel words a run: its counts, an object's metrics and conditions, a held run's money, as short lines. Pure functions. */
import type { RuleRunDto, RunObjectDto } from '../../../shared/contracts';
import { formatMoney, formatPercent } from '../numberFormat';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The counts in the order a reader wants them: what was looked at, then what was done, then why not. */
const COUNT_ORDER = [
  'objects',
  'acted',
  'held',
  'would_act',
  'revived',
  'failed',
  'cooling_down',
  'too_early',
  'waiting_for_event',
  'lag_allowance',
  'campaign_off',
  'exempt',
  'already_off',
  'no_data',
  'no_outcome_data',
  'under_threshold',
];

/** `{objects: 12, acted: 2}` → '12 looked at · 2 turned off' (zero counts left out, objects always shown). */
export function countsText(counts: Record<string, number>, translate: Translate): string {
  return COUNT_ORDER.filter((key) => key === 'objects' || (counts[key] ?? 0) > 0)
    .map((key) => translate(`rules.editor.runs.count.${key}`, { n: counts[key] ?? 0 }))
    .join(' · ');
}

/** An object's metrics as 'Spend: $12.00 · Leads: 0 · …'; null when the run had no insights for it. */
export function metricsText(metrics: RunObjectDto['metrics'], translate: Translate): string | null {
  if (!metrics) return null;
  const label = (key: string) => translate(`rules.editor.runs.metric.${key}`);
  const parts = [
    `${label('spend')}: ${formatMoney(metrics.spend)}`,
    `${label('leads')}: ${metrics.leads ?? 0}`,
    `${label('link_clicks')}: ${metrics.link_clicks ?? 0}`,
  ];
  if (metrics.ctr !== null) parts.push(`${label('ctr')}: ${formatPercent(metrics.ctr)}`);
  if (metrics.cpc !== null) parts.push(`${label('cpc')}: ${formatMoney(metrics.cpc)}`);
  if (metrics.impressions !== null) parts.push(`${label('impressions')}: ${metrics.impressions}`);
  return parts.join(' · ');
}

/** A daily delta with its sign: '+$10.00', '−$5.50' (a minus sign, not a hyphen), '$0.00'. */
export function signedMoney(value: number): string {
  if (value > 0) return `+${formatMoney(value)}`;
  if (value < 0) return `−${formatMoney(-value)}`;
  return formatMoney(0);
}

/** A condition's result as a mark: ✓ holds, ✗ does not, 'no data' when it is neither. */
export function conditionMark(result: boolean | null, translate: Translate): string {
  if (result === null) return translate('budgets.conditions.no_data');
  return result ? '✓' : '✗';
}

/**
 * What a held run's approval would cost: its money line and the daily budget it adds against the
 * folder's limit ("Adds $1,400.00/day … over its limit of $1,000.00/day"); none for a run without
 * budget changes.
 */
export function heldMoneyLines(run: Pick<RuleRunDto, 'money' | 'limits'>, translate: Translate): string[] {
  const lines: string[] = [];
  if (run.money?.text) lines.push(translate('budgets.held.money', { money: run.money.text }));
  const added = run.limits?.added_daily;
  if (added !== undefined) {
    const limit = run.limits?.max_daily_increase;
    lines.push(
      limit == null
        ? translate('budgets.held.added_no_limit', { added: formatMoney(added) })
        : translate('budgets.held.added', { added: formatMoney(added), limit: formatMoney(limit) }),
    );
  }
  return lines;
}
