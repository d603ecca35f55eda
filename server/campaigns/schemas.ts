/**
 * Route schemas of the ad accounts and campaigns API: the answers (docs/contract.md#entities) and the Campaigns
 * screen's filters. A bad filter value answers 400 `{param: ["message"]}`; an absent or empty
 * parameter is no filter, and of a repeated one the last counts.
 */
import { z } from 'zod';
import { MESSAGES } from '../../shared/validation';
import { objectStateSchema } from '../../shared/ads';
import { orderingQuery, pageQuery, searchQuery } from '../http/schemas';
import { fitsBigint } from '../http/params';

export const tags = ['campaigns'];

export const adAccountSchema = z.object({
  account_name: z.string(),
  ad_account_id: z.string().describe("'act_' and the digits"),
  ad_account_id_int: z.union([z.number().int(), z.string()]).describe('The digits (a string when too large for JSON)'),
  timezone_name: z.string(),
  currency: z.string(),
});

const isoTime = z.string().describe('ISO 8601 date and time');

export const campaignSchema = z.object({
  id: z.string(),
  campaign_id: z.string(),
  campaign_name: z.string(),
  status: z.string().nullable(),
  effective_status: z.string().nullable(),
  state: objectStateSchema.describe(
    'On, or why not: turned off by a rule (which, when, the run), paused by Meta, by a person, or held by the platform',
  ),
  meta_ad_account: adAccountSchema,
  campaignextension: z.object({
    topic: z.string().nullable(),
    is_webinar: z.boolean().nullable(),
    event_date: z.string().nullable(),
    event_time: z.string().nullable(),
  }),
  chosen_event_at: isoTime
    .nullable()
    .describe('The start of the webinar date chosen by hand for a name that gives none (POST …/event_date/)'),
  spend: z.number(),
  leads: z.number().int(),
  website_leads: z.number().int(),
  actions: z.array(z.object({ action_type: z.string(), value: z.string() })),
  impressions: z.number().nullable(),
  clicks: z.number().nullable(),
  link_clicks: z.number().nullable(),
  cpl: z.number().nullable(),
  ctr: z.number().nullable(),
  cpc: z.number().nullable(),
  end_date: isoTime.nullable(),
  updated_at: isoTime,
  registrations: z
    .number()
    .int()
    .nullable()
    .describe(
      "Leads (and website registrations) registered for the campaign's happened webinar dates; null before one happened",
    ),
  attendees: z
    .number()
    .int()
    .nullable()
    .describe('Of those registrations, the people who attended; null before an event happened'),
  show_up_rate: z
    .number()
    .nullable()
    .describe('attendees ÷ registrations (0–1); null before an event happened or without registrations'),
  cost_per_attendee: z
    .number()
    .nullable()
    .describe('Settled spend ÷ attendees; null before an event happened or without attendees'),
});

export const syncReportSchema = z.object({
  detail: z.string(),
  accounts: z.number().int(),
  campaigns: z.number().int(),
  failures: z.array(z.object({ adAccountId: z.string(), error: z.string() })),
});

export const adAccountListQuery = pageQuery.extend(searchQuery.shape);

/** A filter value: trimmed, the last of a repeated parameter, and absent when blank. */
const filterText = (description: string) =>
  z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((value) => {
      const last = Array.isArray(value) ? value[value.length - 1] : value;
      const text = last?.trim();
      return text ? text : undefined;
    })
    .describe(description);

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

function isRealDay(value: string): boolean {
  if (!ISO_DAY.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

const day = (description: string) =>
  filterText(`${description} (YYYY-MM-DD)`).refine((v) => v === undefined || isRealDay(v), 'Enter a valid date.');

const bound = (description: string) =>
  filterText(description).refine((v) => v === undefined || Number.isFinite(Number(v)), MESSAGES.numeric);

const WEBINAR_VALUES: Record<string, boolean | null> = {
  true: true,
  '1': true,
  yes: true,
  false: false,
  '0': false,
  no: false,
  null: null,
  none: null,
  unknown: null,
};

export const campaignListQuery = pageQuery.extend(orderingQuery.shape).extend({
  campaign_name: filterText('Campaign name contains'),
  meta_ad_account: filterText('An ad account id, several comma-joined, or a part of an ad account name'),
  campaign_id__in: filterText('Comma-separated campaign ids').refine(
    (v) => v === undefined || v.split(',').every((p) => fitsBigint(p.trim()) || p.trim() === ''),
    MESSAGES.integer,
  ),
  event_type__in: filterText('Comma-separated topics'),
  is_webinar: filterText('true, false or unknown')
    .refine((v) => v === undefined || Object.hasOwn(WEBINAR_VALUES, v.toLowerCase()), 'Must be true or false.')
    .transform((v) => (v === undefined ? undefined : WEBINAR_VALUES[v.toLowerCase()])),
  event_date_after: day('Event on or after'),
  event_date_before: day('Event on or before'),
  end_date_after: day('Ends on or after, in the ad account time zone'),
  end_date_before: day('Ends on or before, in the ad account time zone'),
  spend_range_min: bound('Spend at least'),
  spend_range_max: bound('Spend at most'),
  cpl_annotation_min: bound('CPL at least'),
  cpl_annotation_max: bound('CPL at most'),
  ctr_annotation_min: bound('CTR at least'),
  ctr_annotation_max: bound('CTR at most'),
  cpc_annotation_min: bound('CPC at least'),
  cpc_annotation_max: bound('CPC at most'),
  show_up_rate_min: bound('Show-up rate at least (0–1)'),
  show_up_rate_max: bound('Show-up rate at most (0–1)'),
  cost_per_attendee_min: bound('Cost per attendee at least'),
  cost_per_attendee_max: bound('Cost per attendee at most'),
});

// A campaign's webinar dates are shared with the browser's event date dialog.
export { campaignEventsAnswer, chosenEventDateBody } from '../../shared/campaignEventDates';

export type CampaignFilters = z.output<typeof campaignListQuery>;

export const campaignIdParams = z.object({
  campaign_id: z.string().refine(fitsBigint, MESSAGES.integer),
});
