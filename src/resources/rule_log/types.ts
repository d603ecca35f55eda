/** The rule engine's answers as the browser reads them (server/engine/routes.ts, docs/api.md). */
import type { PreviewResultDto, RuleLogEntryDto } from '../../domain/contracts';

export type ActivityEntry = RuleLogEntryDto;
export type PreviewResult = PreviewResultDto;

export interface RunNowResult {
  status: 'done' | 'already_done' | 'in_progress' | 'rule_unavailable' | 'failed';
  detail: string;
  turned_off: number;
  failed: number;
  results: ActivityEntry[];
}

/** 'turn_off_ad' → 'turn off ad' (SPEC §2: underscores shown as spaces). */
export const actionText = (action: string) => action.replaceAll('_', ' ');

export const isUndoable = (entry: Pick<ActivityEntry, 'action' | 'undone_at' | 'rule'>) =>
  (entry.action === 'turn_off_ad' || entry.action === 'turn_off_campaign') && !entry.undone_at;
