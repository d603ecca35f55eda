/**
 * A campaign's webinar dates (docs/api.md, "Ad accounts and campaigns"): `GET /api/campaigns/{id}/event_dates/`
 * answers the dates it advertises and, when its name gives none, the Demio dates of its folder to
 * choose from; `POST /api/campaigns/{id}/event_date/` stores the one chosen (both ids null: clears it).
 */
import { z } from 'zod';

const isoTime = z.string().describe('ISO 8601 date and time');

/** Body of POST /api/campaigns/{id}/event_date/: the Demio date a person chose, or null to clear it. */
export const chosenEventDateBody = z.object({
  event_id: z.number().int().positive().nullable(),
  date_id: z.number().int().positive().nullable(),
});

export const campaignEventDateSchema = z.object({
  event_id: z.number().int(),
  date_id: z.number().int(),
  starts_at: isoTime,
  source: z.enum(['name', 'chosen']),
});

export const campaignEventsAnswer = z.object({
  name_has_date: z.boolean().describe('Whether the campaign name advertises a date (then it cannot be chosen by hand)'),
  dates: z.array(campaignEventDateSchema),
  options: z
    .array(
      z.object({ event_id: z.number().int(), event_name: z.string(), date_id: z.number().int(), starts_at: isoTime }),
    )
    .describe("The folder's Demio event dates a person may choose from (empty when the name has a date)"),
});

export type ChosenEventDate = z.infer<typeof chosenEventDateBody>;
export type CampaignEventDates = z.infer<typeof campaignEventsAnswer>;
