/**
 * The approval queue (`GET /api/approvals/`): every held run still waiting that the signed-in
 * person may decide, with the money it would move a day, and the words both the API and the
 * screen use for an approval limit.
 */
import { z } from 'zod';

/** One object a held run would change: an ad or campaign it would turn off, or an ad set or campaign whose budget it would change. */
export interface ApprovalObjectDto {
  id: string;
  name: string;
  type: 'ad' | 'adset' | 'campaign';
  /** turn_off_ad | turn_off_campaign | raise_budget | lower_budget | restore_budget */
  change: string;
}

export interface ApprovalDto {
  /** The held run's id (what Approve and Dismiss name). */
  id: number;
  rule_id: number;
  rule_name: string;
  folder_id: number;
  folder_name: string;
  ad_account_name: string;
  currency: string;
  /** The daily spend of what the run would turn off (account currency a day). */
  spend_stopped_per_day: number;
  /** True when some of that spend is estimated: less than a day of readings before the run was held. */
  spend_estimated: boolean;
  /** The daily budget the run's budget changes would add (account currency a day). */
  budget_added_per_day: number;
  /** spend_stopped_per_day + budget_added_per_day: what the approval limit is compared with. */
  money_at_stake_per_day: number;
  /** Why the run was held ("would turn off 3 of 4 delivering ads (75%, limit 50%)"). */
  held_because: string;
  /** The objects it would change (the first 50) and how many in all. */
  objects: ApprovalObjectDto[];
  object_count: number;
  held_at: string;
  waited_seconds: number;
  may_approve: boolean;
  /** Why this person may not approve it (over their limit); null when they may. */
  approve_refusal: string | null;
}

/** How many of a held run's objects an approval row names. */
export const APPROVAL_OBJECTS_SHOWN = 50;

export const approvalObjectSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(['ad', 'adset', 'campaign']),
  change: z.string(),
}) satisfies z.ZodType<ApprovalObjectDto>;

export const approvalSchema = z.object({
  id: z.number().int().describe('The held run (POST /api/rule_runs/{id}/approve/ or /dismiss/)'),
  rule_id: z.number().int(),
  rule_name: z.string(),
  folder_id: z.number().int(),
  folder_name: z.string(),
  ad_account_name: z.string(),
  currency: z.string(),
  spend_stopped_per_day: z.number().describe('Daily spend of what the run would turn off'),
  spend_estimated: z.boolean().describe('Less than a day of readings before the run was held: the spend is estimated'),
  budget_added_per_day: z.number().describe('Daily budget the run’s budget changes would add'),
  money_at_stake_per_day: z.number().describe('Spend stopped + budget added: what approval limits are compared with'),
  held_because: z.string(),
  objects: z.array(approvalObjectSchema).describe(`The objects it would change (the first ${APPROVAL_OBJECTS_SHOWN})`),
  object_count: z.number().int(),
  held_at: z.string(),
  waited_seconds: z.number().int(),
  may_approve: z.boolean(),
  approve_refusal: z.string().nullable().describe('Why this person may not approve it; null when they may'),
}) satisfies z.ZodType<ApprovalDto>;

const formats = new Map<string, Intl.NumberFormat[]>();

/** An amount of the currency: whole amounts without cents ("$1,240"), others with ("$12.50"). */
export function amountText(amount: number, currency = 'USD'): string {
  let pair = formats.get(currency);
  if (!pair) {
    const make = (digits: number) => {
      const options = { style: 'currency', minimumFractionDigits: digits, maximumFractionDigits: digits } as const;
      try {
        return new Intl.NumberFormat('en-US', { ...options, currency });
      } catch {
        return new Intl.NumberFormat('en-US', { ...options, currency: 'USD' });
      }
    };
    pair = [make(0), make(2)];
    formats.set(currency, pair);
  }
  const cents = Math.round(amount * 100);
  return pair[cents % 100 === 0 ? 0 : 1]!.format(cents / 100);
}

/** "$1,240/day". */
export const perDayText = (amount: number, currency?: string) => `${amountText(amount, currency)}/day`;

/** Why an approval over the approver's limit is refused (the 403's detail, and the queue's note). */
export const overLimitText = (stake: number, limit: number, currency?: string) =>
  `This run releases ${perDayText(stake, currency)}; your group may approve up to ${perDayText(limit, currency)}. Someone allowed more must approve it.`;

/** How long a run has waited: "12 min", "3 h 10 min", "2 d 4 h". */
export function waitedText(seconds: number): string {
  const minutes = Math.max(0, Math.floor(seconds / 60));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}
