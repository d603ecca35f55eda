/**
 * The catalogue of a rule's items (docs/engine.md): filter and task names, the task cards' wording
 * and values. Plain data without the validation of rules.ts, so the screens that only name the
 * items (the labels, loaded up front) do not load the validation library.
 */
import { CAMPAIGN_NAME_OPTIONS } from './constants';

/** Limits of a campaign-name filter list. */
export const FILTER_ITEM_MIN = 2;
export const FILTER_ITEM_MAX = 100;
export const FILTER_MAX_ITEMS = 50;

export const FILTER_NAMES = ['campaign_name_contains', 'campaign_name_not_contains'] as const;
export type FilterName = (typeof FILTER_NAMES)[number];

export const TASK_NAMES = [
  'campaign_leads',
  'trigger_cpl',
  'website_cpl',
  'spend_cpl_no_leads',
  'spend_no_links_clicks',
  'spend_ctr_no_leads',
  'spend_cpc_no_leads',
  'cost_per_attendee',
  'show_up_rate',
  'cost_per_stage',
] as const;
export type TaskName = (typeof TASK_NAMES)[number];

export type TaskValueKey =
  | 'leads'
  | 'cpl'
  | 'spend'
  | 'ctr'
  | 'cpc'
  | 'cost'
  | 'rate'
  | 'stage'
  | 'min_registrations'
  | 'min_leads';

/** The CRM stages a cost-per-stage task may name, in the order a lead usually passes them. */
export const OUTCOME_STAGES = ['qualified', 'booked', 'attended', 'won'] as const;
export type OutcomeStage = (typeof OUTCOME_STAGES)[number];

/** The tasks judged on what a lead became (webinar show-ups, CRM stages) rather than on Meta's numbers. */
export const OUTCOME_TASKS = ['cost_per_attendee', 'show_up_rate', 'cost_per_stage'] as const;
export type OutcomeTaskName = (typeof OUTCOME_TASKS)[number];
export const isOutcomeTask = (name: unknown): name is OutcomeTaskName =>
  (OUTCOME_TASKS as readonly unknown[]).includes(name);

export interface TaskValueSpec {
  key: TaskValueKey;
  /** Field label. */
  label: string;
  /** Shown before the number ($) or after it (%). */
  prefix?: string;
  suffix?: string;
  integer?: boolean;
  /** A choice among these words instead of a number (the stage of cost per stage). */
  options?: readonly string[];
}

export interface TaskSpec {
  name: TaskName;
  /** What the task turns off. */
  target: 'campaign' | 'ad';
  /** The wording of docs/contract.md#constants, as the task card's title. */
  wording: string;
  values: readonly TaskValueSpec[];
  /** The card's help line (the outcome tasks: when they judge). */
  help?: string;
}

const money = (key: TaskValueKey, label: string): TaskValueSpec => ({ key, label, prefix: '$' });

/** The task catalogue, in the order the editor shows the cards. */
export const TASKS: readonly TaskSpec[] = [
  {
    name: 'campaign_leads',
    target: 'campaign',
    wording: 'Turn off the campaign if leads equal a value',
    values: [{ key: 'leads', label: 'Leads', integer: true }],
  },
  {
    name: 'trigger_cpl',
    target: 'ad',
    wording: 'Turn off the ad if CPL is above a value',
    values: [money('cpl', 'CPL')],
  },
  {
    name: 'website_cpl',
    target: 'ad',
    wording: 'Turn off the ad if website CPL is above a value',
    values: [money('cpl', 'CPL')],
  },
  {
    name: 'spend_cpl_no_leads',
    target: 'ad',
    wording: 'Turn off the ad if spend is above a value and leads are 0',
    values: [money('spend', 'Spend')],
  },
  {
    name: 'spend_no_links_clicks',
    target: 'ad',
    wording: 'Turn off the ad if spend exceeds a value and link clicks are 0',
    values: [money('spend', 'Spend')],
  },
  {
    name: 'spend_ctr_no_leads',
    target: 'ad',
    wording: 'Turn off the ad if spend exceeds a value and CTR is below a percentage and leads are 0',
    values: [money('spend', 'Spend'), { key: 'ctr', label: 'CTR', suffix: '%' }],
  },
  {
    name: 'spend_cpc_no_leads',
    target: 'ad',
    wording: 'Turn off the ad if spend exceeds a value and CPC is above a value and leads are 0',
    values: [money('spend', 'Spend'), money('cpc', 'CPC')],
  },
  {
    name: 'cost_per_attendee',
    target: 'ad',
    wording: 'Turn off the ad if cost per attendee is above a value',
    values: [money('cost', 'Cost'), { key: 'min_registrations', label: 'Min. settled registrations', integer: true }],
    help: 'Spend on the registrations whose event has happened, divided by the registrants who attended. Judged once the ad has that many settled registrations; until its first event it waits. Turns off only when the cost stays over the line at the best show-up rate chance allows, so a few no-shows do not decide.',
  },
  {
    name: 'show_up_rate',
    target: 'ad',
    wording: 'Turn off the ad if show-up rate is below a percentage',
    values: [
      { key: 'rate', label: 'Show-up rate', suffix: '%' },
      { key: 'min_registrations', label: 'Min. settled registrations', integer: true },
    ],
    help: 'Attendees of the events that have happened, out of their registrants. Judged once the ad has that many settled registrations; until its first event it waits. Turns off only when the rate stays under the line at the best chance allows.',
  },
  {
    name: 'cost_per_stage',
    target: 'ad',
    wording: 'Turn off the ad if cost per CRM stage is above a value',
    values: [
      { key: 'stage', label: 'Stage', options: OUTCOME_STAGES },
      money('cost', 'Cost'),
      { key: 'min_leads', label: 'Min. judged leads', integer: true },
    ],
    help: "Spend on the leads old enough to be judged (past the stage's window), divided by the leads that reached the stage. Judged once that many leads are past the window.",
  },
];

/** What website leads (no Meta form) can be judged on, shown beside the outcome tasks. */
export const WEBSITE_LEADS_NOTE =
  'Website leads have no Meta form: cost per attendee and show-up rate count them through their webinar registration (UTM tags naming the ad), and CRM stages match them by lead e-mail. Only instant-form leads are read from Meta.';

export const FILTERS: readonly { name: FilterName; label: string; options: readonly string[] }[] = [
  { name: 'campaign_name_contains', label: 'Campaign name contains', options: CAMPAIGN_NAME_OPTIONS },
  { name: 'campaign_name_not_contains', label: "Campaign name doesn't contain", options: CAMPAIGN_NAME_OPTIONS },
];

/** The three cards whose spend value is shared (docs/screens.md#states-and-transitions): typing it in one copies it to all three. */
export const SHARED_SPEND_TASKS: readonly TaskName[] = [
  'spend_no_links_clicks',
  'spend_ctr_no_leads',
  'spend_cpc_no_leads',
];

export const taskSpec = (name: string): TaskSpec | undefined => TASKS.find((t) => t.name === name);
export const isFilterName = (name: unknown): name is FilterName => (FILTER_NAMES as readonly unknown[]).includes(name);
export const isTaskName = (name: unknown): name is TaskName => (TASK_NAMES as readonly unknown[]).includes(name);
