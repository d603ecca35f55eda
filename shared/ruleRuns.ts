/** The rule engine's answers as the browser reads them (server/activity/routes.ts, server/run/routes.ts, docs/api.md). */
import type { RuleLogEntryDto, RuleRunDto } from './contracts';
import type { PreviewAnswerDto } from './previewHold';

export type ActivityEntry = RuleLogEntryDto;
export type PreviewResult = PreviewAnswerDto;
export type RuleRun = RuleRunDto;

/** A held run's Approve answer: what was carried out, with the held run and the approval's run. */
export interface ApproveResult {
  status: string;
  detail: string;
  turned_off: number;
  failed: number;
  held_run: RuleRun;
  run: RuleRun | null;
}

export interface RuleExemption {
  object_id: string;
  created_at: string;
}

export interface RunNowResult {
  status: 'done' | 'already_done' | 'in_progress' | 'rule_unavailable' | 'failed' | 'held' | 'notify_only';
  detail: string;
  turned_off: number;
  failed: number;
  results: ActivityEntry[];
}
