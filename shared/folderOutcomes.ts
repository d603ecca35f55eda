/**
 * A folder's lead outcomes summed over its ad account's campaigns (`GET /api/folders/{id}/outcomes/`,
 * docs/api.md "Lead outcomes of a folder"): the webinar figures the campaigns list shows per campaign,
 * and the leads that reached each CRM stage with what each cost. Counts and money only.
 */
import { z } from 'zod';

export const stageTotalSchema = z.object({
  stage: z.string().describe('qualified, booked, attended or won'),
  reached: z.number().int().describe('Leads that reached the stage'),
  judged: z.number().int().describe('Leads old enough to be judged at the stage (past its window)'),
  cost: z
    .number()
    .nullable()
    .describe('The spend on the judged leads over the leads that reached the stage; null while none reached it'),
});
export type StageTotal = z.infer<typeof stageTotalSchema>;

export const folderOutcomesSchema = z
  .object({
    registrations: z
      .number()
      .int()
      .nullable()
      .describe("Registrations for the campaigns' happened webinar dates; null before any date happened"),
    attendees: z.number().int().nullable().describe('Of those, the ones who attended; null before any date happened'),
    show_up_rate: z.number().nullable().describe('attendees / registrations (0–1); null without registrations'),
    cost_per_attendee: z
      .number()
      .nullable()
      .describe('The spend that bought the registrations over the attendees; null without attendees'),
    currency: z.string().nullable().describe("The ad account's currency"),
    stages: z
      .array(stageTotalSchema)
      .describe('Every CRM stage in order when the folder’s account has CRM outcomes; empty otherwise'),
  })
  .describe("A folder's lead outcomes, summed over its ad account's campaigns");
export type FolderOutcomes = z.infer<typeof folderOutcomesSchema>;
