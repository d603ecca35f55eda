/**
 * What the leads of an ad became, as known at a given moment: the contract between the outcome
 * stores (webinar show-ups from Demio, CRM stages uploaded or posted) and what reads them (the
 * rule evaluator, the campaigns list, the backtest and the impact report). Only counts: people are
 * matched as hashed e-mails or Meta lead ids upstream and never reach this shape.
 */

/** The CRM stages a lead outcome may name, in the order a lead usually passes them. */
export const LEAD_STAGES = ['qualified', 'booked', 'attended', 'won'] as const;
export type LeadStage = (typeof LEAD_STAGES)[number];

export interface AdQuality {
  /** Form and website leads matched to a registration of an event this ad advertises. */
  registrations: number;
  /** Of those registrations, the ones whose event has happened (their show-up is settled). */
  settledRegistrations: number;
  /** Registrants of happened events who attended. */
  attendees: number;
  /** The ad's advertised events that have happened by the moment asked about. */
  eventsHappened: number;
  /** The next advertised event not yet happened at the moment asked about (ISO), if any. */
  nextEventAt: string | null;
  /** Spend of the ad that bought the settled registrations (the cost side of cost per attendee). */
  settledSpend: number | null;
  /** Leads that reached each CRM stage by the moment asked about, and the leads old enough to be judged. */
  stages: Partial<Record<LeadStage, { reached: number; judged: number }>>;
}

/** An ad's quality as known at `at`, by ad id (ads with nothing known have no entry). */
export type QualityByAd = Map<string, AdQuality>;

export interface QualitySource {
  /** What each ad of the account had become by `at` (outcomes recorded after `at` are not seen). */
  qualityAt(adAccountId: string, at: Date): Promise<QualityByAd>;
}
