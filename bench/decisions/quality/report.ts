/** The quality section's markdown report and its goals (docs/bench.md). */
import os from 'node:os';
import type { QualityOptions } from './drive';
import type { OracleCounts, QualityCounts } from './tally';

export interface QualityDatabaseResult {
  database: 'pglite' | 'postgres';
  cpl_only: QualityCounts;
  show_up_aware: QualityCounts;
  /** A rule that knew every ad's settled cost per attendee from the start (tally.ts tallyOracle). */
  oracle: OracleCounts;
}

export const QUALITY_GOALS = (r: QualityDatabaseResult) => ({
  cost_per_attendee_at_most_80_percent_of_cpl_only:
    r.show_up_aware.cost_per_attendee !== null &&
    r.cpl_only.cost_per_attendee !== null &&
    r.show_up_aware.cost_per_attendee <= 0.8 * r.cpl_only.cost_per_attendee,
  attendees_lost_at_most_half_of_cpl_only: r.show_up_aware.attendees_lost <= 0.5 * r.cpl_only.attendees_lost,
  false_pause_rate_at_most_2_percent: r.show_up_aware.false_pause_rate <= 0.02,
});

const money = (n: number | null) =>
  n === null ? '—' : `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const whole = (n: number) => n.toLocaleString('en-US');
const pct = (n: number) => `${(n * 100).toFixed(1)} %`;
const yes = (ok: boolean) => (ok ? 'yes' : '**no**');

function table(r: QualityDatabaseResult): string[] {
  const row = (label: string, f: (c: QualityCounts) => string, oracle = '') =>
    `| ${label} | ${f(r.cpl_only)} | ${f(r.show_up_aware)} | ${oracle} |`;
  const o = r.oracle;
  return [
    `| ${r.database} | cpl_only | show_up_aware | knowing every ad’s seats |`,
    '|---|---:|---:|---:|',
    row('spend', (c) => money(c.spend), money(o.spend)),
    row('registrations (settled)', (c) => whole(c.registrations)),
    row('attendees', (c) => whole(c.attendees), whole(o.attendees)),
    row('cost per attendee', (c) => money(c.cost_per_attendee), money(o.cost_per_attendee)),
    row('attendees lost to pauses', (c) => whole(c.attendees_lost), whole(o.attendees_lost)),
    row('pauses', (c) => whole(c.pauses), whole(o.pauses)),
    row('false pauses', (c) => whole(c.false_pauses)),
    row('false-pause rate', (c) => pct(c.false_pause_rate)),
    row('runs (failed)', (c) => `${whole(c.runs)} (${c.runs_failed})`),
    row('outcome sync failures', (c) => whole(c.sync_failures)),
    row('seconds', (c) => String(c.seconds)),
  ];
}

export function renderQuality(results: QualityDatabaseResult[], o: QualityOptions, startedAt: Date): string {
  const cpus = os.cpus();
  const first = results[0]!;
  const goals = QUALITY_GOALS(first);
  const ads = o.accounts * o.campaignsPerAccount * o.adsPerCampaign;
  return [
    `# Decisions bench: quality — ${startedAt.toISOString()}`,
    '',
    `${cpus.length} × ${cpus[0]?.model.trim() ?? 'CPU'}, Node ${process.versions.node}; ran on ${results.map((r) => r.database).join(' and ')}. ` +
      `${o.accounts} ad accounts × ${o.campaignsPerAccount} webinar campaigns × ${o.adsPerCampaign} ads = ${whole(ads)} ads, already running when the rules are switched on, each campaign advertising weekly dates, ` +
      `${o.days} simulated days, rules and outcome sync every ${o.everyHours} h (seed ${o.seed}). ` +
      `Cost per lead $15–$45 and show-up rate 5–70 % per ad, drawn independently. One rule per folder: cpl_only turns an ad off at CPL > $${o.cpl}; ` +
      `show_up_aware at cost per attendee > $${o.costPerAttendee} (the same price at the mean show-up rate, 37.5 %) with ${o.minRegistrations} settled registrations, acting only past what chance could hide. ` +
      `Both with the new-rule judging defaults. ${first.cpl_only.ads_within_threshold} of ${whole(first.cpl_only.ads)} ads buy seats within $${o.costPerAttendee} (a pause of one is false). How to read this: docs/bench.md.`,
    '',
    ...results.flatMap((r) => [...table(r), '']),
    '| goal | met |',
    '|---|---|',
    `| show_up_aware cost per attendee ≤ 0.8 × cpl_only | ${yes(goals.cost_per_attendee_at_most_80_percent_of_cpl_only)} |`,
    `| show_up_aware attendees lost ≤ 0.5 × cpl_only | ${yes(goals.attendees_lost_at_most_half_of_cpl_only)} |`,
    `| show_up_aware false-pause rate ≤ 2 % | ${yes(goals.false_pause_rate_at_most_2_percent)} |`,
    '',
    `Knowing every ad’s seats: a rule told each ad’s settled cost per attendee from the start, turning off every ad over $${o.costPerAttendee} at its first run once a day old — the best a rule at this seat price can do on this agency; its cost per attendee is ${first.cpl_only.cost_per_attendee && first.oracle.cost_per_attendee ? (first.oracle.cost_per_attendee / first.cpl_only.cost_per_attendee).toFixed(2) : '—'} × cpl_only’s.`,
    '',
  ].join('\n');
}
