/**
 * The parts of a rule the engine reads, in the API's item shape (SPEC §3), and the task
 * catalogue's threshold keys (DESIGN §5).
 */
export interface RuleItem {
  name: string;
  values: unknown;
  is_active: boolean;
}

export interface EngineRule {
  id: number;
  name: string;
  rule_filter: RuleItem[];
  rule_task: RuleItem[];
}

export const TASK_VALUE_KEYS = {
  campaign_leads: ['leads'],
  trigger_cpl: ['cpl'],
  website_cpl: ['cpl'],
  spend_cpl_no_leads: ['spend'],
  spend_no_links_clicks: ['spend'],
  spend_ctr_no_leads: ['spend', 'ctr'],
  spend_cpc_no_leads: ['spend', 'cpc'],
} as const;

export type TaskName = keyof typeof TASK_VALUE_KEYS;

export function isTaskName(name: string): name is TaskName {
  return Object.hasOwn(TASK_VALUE_KEYS, name);
}

function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/**
 * A task's thresholds by key ({cpl: 50}); null when the task is unknown or a value is not a number.
 * Values may come keyed ({spend: 50, ctr: 1}) or in catalogue order ([50, 1]); a single-value
 * task may also hold a bare number.
 */
export function taskThresholds(task: RuleItem): Record<string, number> | null {
  if (!isTaskName(task.name)) return null;
  const keys = TASK_VALUE_KEYS[task.name];
  const values = task.values;
  const result: Record<string, number> = {};
  for (const [index, key] of keys.entries()) {
    let raw: unknown;
    if (Array.isArray(values)) raw = values[index];
    else if (values && typeof values === 'object') raw = (values as Record<string, unknown>)[key];
    else if (keys.length === 1) raw = values;
    const n = toNumber(raw);
    if (n === null) return null;
    result[key] = n;
  }
  return result;
}
