/**
 * The activity store: every write of rule_activity and rule_exemptions goes through it — claims
 * of turn-offs, turn-ons, revives and budget changes, their outcome, held runs, flapping alerts,
 * Meta's own pauses, mail sent once, undos and exemptions — with the reads the engine's runs make
 * of those tables while deciding. Its pieces live beside it, one file each; the Activity's pages
 * read through ruleLogStore.ts.
 */
import type { Database } from '../db/client';
import { budgetClaimsOf, turnOffClaimsOf, turnOnClaimsOf } from './claims';
import { claimOutcomesOf } from './claimOutcomes';
import { mailClaimsOf } from './mailClaims';
import { pipelineReadsOf } from './pipelineReads';
import { recordedEntriesOf } from './recordedEntries';
import { undoAndExemptionsOf } from './undoExemptions';

export { lockObjects } from './claims';
export {
  RULE_TURN_ON_ACTIONS,
  TURN_OFF_ACTIONS,
  TURN_ON_FOR,
  type ActivityRow,
  type BudgetClaim,
  type MailClaim,
  type NewEntry,
  type PlannedRevive,
  type PlannedTurnOn,
  type ReasonedAction,
  type RunScope,
  type StoredMail,
} from './entryTypes';

export function createActivityStore(db: Database) {
  return {
    ...pipelineReadsOf(db),
    ...turnOffClaimsOf(db),
    ...turnOnClaimsOf(db),
    ...budgetClaimsOf(db),
    ...claimOutcomesOf(db),
    ...recordedEntriesOf(db),
    ...mailClaimsOf(db),
    ...undoAndExemptionsOf(db),
  };
}

export type ActivityStore = ReturnType<typeof createActivityStore>;
