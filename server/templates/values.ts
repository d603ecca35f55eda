/**
 * A rule's values (shared/templates.ts) read from and written to its rows: the rule's own
 * columns and its items. A template's values are one JSON column; a following rule's are its own.
 */
import { eq, sql } from 'drizzle-orm';
import { rules } from '../db/schema/index';
import type { RuleSnapshot } from '../rules/changes';
import { saveItems, type Db } from '../rules/store';
import type { RuleValues } from '../../shared/templates';

const withoutId = <T extends { id?: number }>({ id: _id, ...item }: T) => item as T;

export const valuesOfSnapshot = (s: RuleSnapshot): RuleValues => ({
  name: s.name,
  is_active: s.isActive,
  notify_only: s.notifyOnly,
  rule_filter: s.filters.map(withoutId),
  rule_task: s.tasks.map(withoutId),
  rule_schedule: { schedule: s.schedule, timezone: s.timezone },
  rule_alert_schedule: { schedule: s.alertSchedule },
  judging: s.judging,
  conditions: s.conditions,
  action: s.action,
});

export const snapshotOfValues = (v: RuleValues): RuleSnapshot => ({
  name: v.name,
  isActive: v.is_active,
  notifyOnly: v.notify_only,
  schedule: v.rule_schedule.schedule,
  timezone: v.rule_schedule.timezone,
  alertSchedule: v.rule_alert_schedule.schedule,
  judging: v.judging,
  conditions: v.conditions,
  action: v.action,
  filters: v.rule_filter,
  tasks: v.rule_task,
});

/**
 * Writes the values over a rule's columns and items. A rule switched off or to notify only by it
 * no longer wants its held turn-offs: the caller dismisses them (see rules.ts).
 */
export async function writeRuleValues(
  db: Db,
  ruleId: number,
  values: RuleValues,
  set: Partial<typeof rules.$inferInsert> = {},
) {
  await db
    .update(rules)
    .set({
      name: values.name,
      isActive: values.is_active,
      notifyOnly: values.notify_only,
      schedule: values.rule_schedule.schedule,
      timezone: values.rule_schedule.timezone,
      alertSchedule: values.rule_alert_schedule.schedule,
      judging: values.judging,
      conditions: values.conditions,
      action: values.action,
      ...set,
      updatedAt: sql`now()`,
    })
    .where(eq(rules.id, ruleId));
  await saveItems(db, ruleId, [...values.rule_filter, ...values.rule_task]);
}
