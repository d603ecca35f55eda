/**
 * A size of the single-request bench's database, in per-rule terms: what `npm run bench` parses
 * (options.ts) and what the seeder fills (seed.ts's seedScale), kept apart from both so neither
 * imports the other.
 */
export interface Scale {
  label: 'small' | 'large';
  folders: number;
  rulesPerFolder: number;
  campaigns: number;
  /** Audit-log entries per rule. */
  logPerRule: number;
  /** Rule-activity (rule log) entries per rule. */
  activityPerRule: number;
}
