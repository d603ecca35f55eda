/** The decisions bench's markdown report and its goals (docs/bench.md). */
import os from 'node:os';
import type { DecisionsOptions } from './drive';
import type { DecisionCounts } from './tally';

export interface DatabaseResult {
  database: 'pglite' | 'postgres';
  naive: DecisionCounts;
  lag_aware: DecisionCounts;
  /** The lag allowances the lag-aware rules got (the accounts' suggested L). */
  lag_hours: number[];
}

export const GOALS = (r: DatabaseResult) => ({
  lag_aware_false_pause_rate_at_most_5_percent: r.lag_aware.false_pause_rate <= 0.05,
  lag_aware_dud_spend_stopped_at_least_90_percent_of_naive:
    r.lag_aware.dud_spend_stopped >= 0.9 * r.naive.dud_spend_stopped,
  no_flaps: r.naive.flaps === 0 && r.lag_aware.flaps === 0,
});

const money = (n: number) => `$${n.toLocaleString('en-US', { maximumFractionDigits: 0 })}`;
const pct = (n: number) => `${(n * 100).toFixed(1)} %`;
const yes = (ok: boolean) => (ok ? 'yes' : '**no**');

function table(r: DatabaseResult): string[] {
  const row = (label: string, f: (c: DecisionCounts) => string) => `| ${label} | ${f(r.naive)} | ${f(r.lag_aware)} |`;
  const kinds = ['true_dud', 'late_converter', 'steady_converter'] as const;
  return [
    `| ${r.database} | naive | lag_aware |`,
    '|---|---:|---:|',
    row('pauses', (c) => String(c.pauses)),
    row('false pauses', (c) => String(c.false_pauses)),
    row('false-pause rate', (c) => pct(c.false_pause_rate)),
    row('dud spend stopped', (c) => `${money(c.dud_spend_stopped)} of ${money(c.dud_spend_unpaused)}`),
    row('late-converter leads lost', (c) => `${c.late_converter_leads_lost} of ${c.late_converter_leads_unpaused}`),
    row('revives', (c) => String(c.revives)),
    row('flaps', (c) => String(c.flaps)),
    row('paused again after a revive', (c) => String(c.paused_again_after_revive)),
    row('median hours from launch to a dud’s pause', (c) => String(c.median_hours_to_pause_dud ?? '—')),
    ...kinds.map((k) =>
      row(
        `${k.replace('_', ' ')}s (${r.naive.by_kind[k].ads}): paused / false / revived`,
        (c) => `${c.by_kind[k].paused} / ${c.by_kind[k].false_pauses} / ${c.by_kind[k].revived}`,
      ),
    ),
    row('runs (failed)', (c) => `${c.runs.toLocaleString('en-US')} (${c.runs_failed})`),
    row('seconds', (c) => String(c.seconds)),
  ];
}

export function renderDecisions(results: DatabaseResult[], o: DecisionsOptions, startedAt: Date): string {
  const cpus = os.cpus();
  const first = results[0]!;
  const goals = GOALS(first);
  const lags = [...first.lag_hours].sort((a, b) => a - b);
  return [
    `# Decisions bench — ${startedAt.toISOString()}`,
    '',
    `${cpus.length} × ${cpus[0]?.model.trim() ?? 'CPU'}, Node ${process.versions.node}; ran on ${results.map((r) => r.database).join(' and ')}. ` +
      `${o.accounts} ad accounts × ${o.campaignsPerAccount} campaigns × ${o.adsPerCampaign} ads = ${(o.accounts * o.campaignsPerAccount * o.adsPerCampaign).toLocaleString('en-US')} ads, ` +
      `${o.days} simulated days, every rule run every ${o.everyHours} h (seed ${o.seed}). One rule per folder: spend > $${o.spend} with no leads, CPL > $${o.cpl}. ` +
      'naive: the rule judges as before the judging settings (a carried-over rule); lag_aware: the new defaults (24 h, 1,000 impressions, 24 h cool-down) with the lag allowance set to the account’s suggested L and revive on (72 h). ' +
      `Suggested L of the lag-aware rules: ${lags[0] ?? '—'}–${lags.at(-1) ?? '—'} h (median ${lags[Math.floor(lags.length / 2)] ?? '—'}). How to read this: docs/bench.md.`,
    '',
    ...results.flatMap((r) => [...table(r), '']),
    '| goal | met |',
    '|---|---|',
    `| lag_aware false-pause rate ≤ 5 % | ${yes(goals.lag_aware_false_pause_rate_at_most_5_percent)} |`,
    `| lag_aware dud spend stopped ≥ 0.9 × naive | ${yes(goals.lag_aware_dud_spend_stopped_at_least_90_percent_of_naive)} |`,
    `| no flaps | ${yes(goals.no_flaps)} |`,
    '',
  ].join('\n');
}
