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
] as const;
export type TaskName = (typeof TASK_NAMES)[number];

export type TaskValueKey = 'leads' | 'cpl' | 'spend' | 'ctr' | 'cpc';

export interface TaskValueSpec {
  key: TaskValueKey;
  /** Field label. */
  label: string;
  /** Shown before the number ($) or after it (%). */
  prefix?: string;
  suffix?: string;
  integer?: boolean;
}

export interface TaskSpec {
  name: TaskName;
  /** What the task turns off. */
  target: 'campaign' | 'ad';
  /** The wording of docs/contract.md#constants, as the task card's title. */
  wording: string;
  values: readonly TaskValueSpec[];
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
];

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
