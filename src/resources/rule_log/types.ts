/** The rule engine's answers as the browser reads them (server/engine/routes.ts, docs/api.md). */
export interface ActivityEntry {
  id: number;
  created_at: string;
  action: string;
  ad_id: string | null;
  object_type: string | null;
  reason: Record<string, string>;
  undone_at: string | null;
  /** The rule leaves this object alone until the exemption is removed. */
  exempt: boolean;
  rule: { id: number; name: string; folder: { id: number; name: string; meta_ad_account: { account_name: string } } } | null;
}

export interface PlannedTurnOff {
  action: 'turn_off_ad' | 'turn_off_campaign';
  ad_id: string;
  campaign_id: string;
  task: string;
  reason: Record<string, string>;
}

export interface PreviewResult {
  rule: { id: number; name: string };
  account: { ad_account_id: string; account_name: string };
  checked_at: string;
  count: number;
  results: PlannedTurnOff[];
  exempt: string[];
  problems: string[];
}

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
