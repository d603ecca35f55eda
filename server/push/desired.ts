/**
 * Which ad-account subscriptions a rule needs, so that Meta pushes every change that can make one
 * of its tasks act (docs/engine.md, "Pushed, not polled"). A task's condition is a conjunction: it
 * starts to hold only when one of its parts does, so each part that can start to hold is watched —
 * a CPL over the line (INSIGHTS_UPDATED), spend past the line (a spend milestone stepping by the
 * line: Meta counts lifetime spend by milestones), a CTR under or a CPC over its line. "No leads",
 * "no link clicks" only ever stop holding, so need no watch. An ad turned back on is told by its
 * status, a campaign renamed by its name (METADATA_UPDATED), once per account.
 *
 * A rule whose tasks cannot all be watched — the outcome tasks (their data is not Meta's), a spend
 * line under Meta's smallest milestone ($10) — or that revives (late leads are not pushed) is not
 * covered: it keeps every scheduled hour.
 */
import type { SubscriptionSpec } from '../adplatform/subscriptions';
import { activeThresholds } from '../judgement/evaluate';
import type { EngineRule, TaskName } from '../judgement/ruleShape';

export interface WantedSubscription {
  /** What is watched, the same text for the same spec (one subscription per key and account). */
  key: string;
  spec: SubscriptionSpec;
  /** The threshold a rule cares about, in the account's currency (a milestone's first multiple). */
  line: number;
}

/** Currencies Meta counts without minor units (its rule filters' "offset" 1). */
const WHOLE_UNIT_CURRENCIES = new Set(['JPY', 'KRW', 'CLP', 'VND', 'PYG', 'ISK', 'TWD', 'HUF']);
/** Meta's smallest spend milestone step, in the account's currency. */
const SMALLEST_SPEND_STEP = 10;

export const minorUnits = (amount: number, currency: string) =>
  Math.round(amount * (WHOLE_UNIT_CURRENCIES.has(currency.toUpperCase()) ? 1 : 100));

export function keyOf(spec: SubscriptionSpec): string {
  const filters = (spec.filters ?? []).map((f) => `${f.field}${f.operator === 'GREATER_THAN' ? '>' : '<'}${f.value}`);
  const milestone = spec.milestone ? `${spec.milestone.field}/${spec.milestone.step}` : '';
  return [spec.event_type, spec.object_type, filters.join('&'), milestone, (spec.fields ?? []).join(',')].join('|');
}

/** What an existing subscription may be changed into, rather than deleted and made again: the same watch with another line. */
export function kindOf(spec: SubscriptionSpec): string {
  const filters = (spec.filters ?? []).map((f) => `${f.field}${f.operator}`);
  return [
    spec.event_type,
    spec.object_type,
    filters.join('&'),
    spec.milestone?.field ?? '',
    (spec.fields ?? []).join(','),
  ].join('|');
}

const wanted = (spec: SubscriptionSpec, line: number): WantedSubscription => ({ key: keyOf(spec), spec, line });

const above = (field: string, value: number): SubscriptionSpec => ({
  event_type: 'INSIGHTS_UPDATED',
  object_type: 'AD',
  filters: [{ field, operator: 'GREATER_THAN', value }],
});

/**
 * The spend line as a milestone; null when Meta has no milestone that small. A milestone is reached
 * at its multiple, while the tasks ask for spend over the line: it steps by the line and one cent
 * ($40.01 for $40), so the first multiple is the first spend past the line.
 */
function spendPast(spend: number, currency: string): WantedSubscription | null {
  if (spend < SMALLEST_SPEND_STEP) return null;
  const step = minorUnits(spend, currency) + 1;
  return wanted(
    { event_type: 'INSIGHTS_MILESTONE_REACHED', object_type: 'AD', milestone: { field: 'spend', step } },
    spend,
  );
}

type Watches = (values: Record<string, number>, currency: string) => (WantedSubscription | null)[];

/** What each task needs watched; a task absent here (the outcome tasks) cannot be pushed. */
const TASK_WATCHES: Partial<Record<TaskName, Watches>> = {
  trigger_cpl: (t, c) => [wanted(above('cost_per_lead_fb', minorUnits(t.cpl!, c)), t.cpl!)],
  website_cpl: (t, c) => [wanted(above('cost_per_website_lead', minorUnits(t.cpl!, c)), t.cpl!)],
  spend_cpl_no_leads: (t, c) => [spendPast(t.spend!, c)],
  spend_no_links_clicks: (t, c) => [spendPast(t.spend!, c)],
  spend_ctr_no_leads: (t, c) => [
    spendPast(t.spend!, c),
    wanted(
      {
        event_type: 'INSIGHTS_UPDATED',
        object_type: 'AD',
        filters: [{ field: 'ctr', operator: 'LESS_THAN', value: t.ctr! }],
      },
      t.ctr!,
    ),
  ],
  spend_cpc_no_leads: (t, c) => [spendPast(t.spend!, c), wanted(above('cpc', minorUnits(t.cpc!, c)), t.cpc!)],
  // Reported leads are whole numbers: more than N − 1 is at least N.
  campaign_leads: (t) => [wanted({ ...above('leadgen', t.leads! - 1), object_type: 'CAMPAIGN' }, t.leads!)],
};

/**
 * An account's watches of its objects: an ad turned back on (or whose campaign or ad set was) can
 * be judged again at once, and a campaign renamed may come under a rule's name filters.
 */
export const OBJECT_WATCHES = [
  wanted({ event_type: 'METADATA_UPDATED', object_type: 'AD', fields: ['effective_status'] }, 0),
  wanted({ event_type: 'METADATA_UPDATED', object_type: 'CAMPAIGN', fields: ['name'] }, 0),
];

/** The subscriptions a rule needs; null when it cannot be covered (it then keeps its scheduled hours). */
export function subscriptionsOf(rule: EngineRule, currency: string): WantedSubscription[] | null {
  if (rule.judging?.revive_hours != null) return null;
  // Conditions over windows and budget actions: no Meta notification says when they start to hold.
  if (rule.conditions || rule.action) return null;
  const thresholds = activeThresholds(rule, []);
  const found: WantedSubscription[] = [];
  for (const [task, values] of thresholds) {
    const watches = TASK_WATCHES[task];
    if (!watches) return null;
    for (const watch of watches(values, currency)) {
      if (!watch) return null;
      found.push(watch);
    }
  }
  return found;
}

/** Every subscription an account's active rules need, each once, with the object watches when any rule is covered. */
export function accountSubscriptions(rules: EngineRule[], currency: string): WantedSubscription[] {
  const byKey = new Map<string, WantedSubscription>();
  for (const rule of rules) {
    const own = subscriptionsOf(rule, currency);
    if (!own) continue;
    for (const one of [...own, ...OBJECT_WATCHES]) byKey.set(one.key, one);
  }
  return [...byKey.values()].sort((a, b) => a.key.localeCompare(b.key));
}
