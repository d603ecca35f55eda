/** The impact report as CSV: one row per turn-off, the columns the screen's table shows. */
import type { ImpactReport } from '../../shared/impact';

const cell = (value: unknown): string => {
  const text = value === null || value === undefined ? '' : String(value);
  // A leading =, +, - or @ would be read as a formula by spreadsheet programs.
  const safe = /^[=+\-@]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

const COLUMNS: [string, (p: ImpactReport['pauses'][number]) => unknown][] = [
  ['turned_off_at', (p) => p.at],
  ['rule', (p) => p.rule_name],
  ['folder', (p) => p.folder_name],
  ['object_type', (p) => p.object_type],
  ['object_id', (p) => p.object_id],
  ['name', (p) => p.name],
  [
    'reason',
    (p) =>
      Object.entries(p.reason)
        .map(([k, v]) => `${k}: ${v}`)
        .join('; '),
  ],
  ['back_on_at', (p) => p.back_on_at],
  ['back_on_by', (p) => p.back_on_by],
  ['hours_off', (p) => p.hours_off],
  ['spend_per_hour_before', (p) => p.spend_rate],
  ['budget_cap', (p) => p.budget_cap],
  ['spend_avoided_estimate', (p) => p.spend_avoided],
  ['false_pause', (p) => p.false_pause],
  ['leads_brought_back', (p) => p.leads_brought_back],
];

export function impactCsv(report: ImpactReport): string {
  const lines = [COLUMNS.map(([name]) => name).join(',')];
  for (const pause of report.pauses) lines.push(COLUMNS.map(([, read]) => cell(read(pause))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
