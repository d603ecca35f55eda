/**
 * The campaigns' webinar outcome columns (registrations, attendees, show-up rate, cost per
 * attendee) as the campaigns list shows and filters them: written here, the campaigns table's own
 * area, from the totals the outcomes work out (../outcomes/campaignTotals.ts).
 */
import { and, eq, isNotNull, notInArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { campaigns } from '../db/schema/index';

/** One campaign's totals; null rates and costs are N/A. */
export interface CampaignOutcomeTotals {
  registrations: number;
  attendees: number;
  showUpRate: number | null;
  costPerAttendee: number | null;
}

export function createOutcomeColumnsStore(db: Database) {
  return {
    /** Writes the account's totals on its campaigns; the others of the account go back to N/A. */
    async write(adAccountId: string, totals: ReadonlyMap<string, CampaignOutcomeTotals>): Promise<void> {
      for (const [id, t] of totals)
        await db
          .update(campaigns)
          .set({
            registrations: t.registrations,
            attendees: t.attendees,
            showUpRate: t.showUpRate === null ? null : t.showUpRate.toFixed(4),
            costPerAttendee: t.costPerAttendee === null ? null : t.costPerAttendee.toFixed(2),
          })
          .where(eq(campaigns.campaignId, BigInt(id)));
      const known = [...totals.keys()].map(BigInt);
      await db
        .update(campaigns)
        .set({ registrations: null, attendees: null, showUpRate: null, costPerAttendee: null })
        .where(
          and(
            eq(campaigns.adAccountId, adAccountId),
            isNotNull(campaigns.registrations),
            known.length ? notInArray(campaigns.campaignId, known) : sql`true`,
          ),
        );
    },
  };
}

export type OutcomeColumnsStore = ReturnType<typeof createOutcomeColumnsStore>;
