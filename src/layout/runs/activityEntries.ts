/**
 * What an entry of the rule activity says, as the screens write it: the ad or campaign it is about,
 * its action in words, and whether it can be undone or only would have turned something off.
 */
import type { ActivityEntry } from '../../../shared/ruleRuns';

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
