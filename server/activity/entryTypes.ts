/** What the activity store's pieces share: an entry's row, the switch actions, and the shapes of claims and new entries. */
import type { ruleActivity } from '../db/schema/index';
import type { PlannedAction } from '../judgement/evaluate';

export type ActivityRow = typeof ruleActivity.$inferSelect;

export const TURN_OFF_ACTIONS = ['turn_off_ad', 'turn_off_campaign'] as const;
export const TURN_ON_FOR: Record<string, 'turn_on_ad' | 'turn_on_campaign'> = {
  turn_off_ad: 'turn_on_ad',
  turn_off_campaign: 'turn_on_campaign',
};
export const RULE_TURN_ON_ACTIONS = ['rule_turn_on_ad', 'rule_turn_on_campaign'] as const;
/** Every switch of an object's status an entry records: a turn-on claim steps aside for any of them. */
export const SWITCH_ACTIONS = [
  'turn_off_ad',
  'turn_off_campaign',
  'turn_on_ad',
  'turn_on_campaign',
  'revive_ad',
  ...RULE_TURN_ON_ACTIONS,
];

export interface RunScope {
  ruleId: number;
  folderId: number;
  slot: Date;
  snapshotId: number | null;
  actorId: number | null;
  runId?: number | null;
  /** The engine's now: a claim is stamped with it, as is its confirmation (markDone). */
  at: Date;
  /**
   * When the statuses the run decided on were read (its snapshot's time): a turn-off of the same
   * object confirmed since then is one this run did not see, so it does not claim the object again.
   */
  readAt: Date;
}

/** A planned turn-off with the reason its activity entry will carry. */
export type ReasonedAction = PlannedAction & { reason: Record<string, string> };

/** A turn_on rule's planned switch-on of a paused ad or campaign, with its entry's reason. */
export interface PlannedTurnOn {
  objectId: string;
  level: 'ad' | 'campaign';
  reason: Record<string, string>;
}

/** A revive a run decided on: the ad to turn back on and the turn-off entry it reverses. */
export interface PlannedRevive {
  objectId: string;
  reason: Record<string, string>;
  reverses: number;
}

/** A budget change that passed the claim's checks (../run/budgetClaims.ts), as its pending entry. */
export interface BudgetClaim {
  scope: RunScope;
  action: string;
  objectId: string;
  objectType: string;
  reason: Record<string, string>;
  /** Daily budgets in cents. */
  before: number;
  after: number;
  reverses: number | null;
}

/** What an engine mail sent once is claimed for (../alerts/mailOnce.ts): one per rule, slot and kind. */
export interface MailClaim {
  ruleId: number;
  folderId: number;
  slot: Date;
  action: 'alert_sent' | 'run_held';
  runId?: number | null;
}

export interface NewEntry {
  ruleId: number | null;
  folderId: number | null;
  action: string;
  adId?: string | null;
  objectType?: string | null;
  reason: Record<string, string>;
  slot?: Date | null;
  actorId?: number | null;
  runId?: number | null;
}

/** Entries keep their stored mail with the Message-ID it went out with. */
export type StoredMail = NonNullable<ActivityRow['mail']>;
