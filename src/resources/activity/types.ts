/** The rule engine's answers as the browser reads them (server/activity/routes.ts, docs/api.md). */
import type { RuleLogEntryDto, RuleRunDto } from '../../domain/contracts';
import type { PreviewAnswerDto } from '../../domain/previewHold';

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

/**
 * The name of the ad or campaign an entry is about, as the engine wrote it into the entry's reason
 * when it acted ("Ad", or "Campaign" for a campaign); undefined when the entry does not say.
 */
export function entryObjectName(entry: Pick<ActivityEntry, 'reason' | 'object_type' | 'action'>): string | undefined {
  const reason = entry.reason ?? {};
  const campaign = entry.object_type === 'campaign' || entry.action.endsWith('_campaign');
  return (campaign ? reason.Campaign : reason.Ad) || undefined;
}

/** 'turn_off_ad' → 'turn off ad' (docs/screens.md: underscores shown as spaces). */
export const actionText = (action: string) => action.replaceAll('_', ' ');

export const isUndoable = (entry: Pick<ActivityEntry, 'action' | 'undone_at' | 'rule'>) =>
  (entry.action === 'turn_off_ad' || entry.action === 'turn_off_campaign') && !entry.undone_at;

/** A turn-off a notify-only rule would have made (it only writes this entry). */
export const isWouldTurnOff = (action: string) =>
  action === 'would_turn_off_ad' || action === 'would_turn_off_campaign';
