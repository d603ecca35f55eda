/**
 * Lead outcome data is kept OUTCOME_RETENTION_DAYS after it happened (the privacy policy says so):
 * webinar and CRM outcomes by when they occurred, the leads' e-mail hashes by when the lead was
 * made, and the campaigns' webinar dates (with whether their participants were read) by their start.
 * The rule engine's scan prunes them with its run records and metric history.
 */
import { lt } from 'drizzle-orm';
import { OUTCOME_RETENTION_DAYS } from '../../shared/leadOutcomes';
import type { Database } from '../db/client';
import { campaignEvents, leadOutcomes, leadPeople } from '../db/schema/index';

const DAY_MS = 86_400_000;

/** The oldest moment still kept at `now`. */
export const outcomeRetentionStart = (now: Date) => new Date(now.getTime() - OUTCOME_RETENTION_DAYS * DAY_MS);

/** Deletes the outcome rows of moments before `olderThan`. */
export async function pruneOutcomes(db: Database, olderThan: Date): Promise<void> {
  await db.delete(leadOutcomes).where(lt(leadOutcomes.occurredAt, olderThan));
  await db.delete(leadPeople).where(lt(leadPeople.createdTime, olderThan));
  await db.delete(campaignEvents).where(lt(campaignEvents.startsAt, olderThan));
}
