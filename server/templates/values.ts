/**
 * A rule's values (shared/templates.ts) as a snapshot of its rows and back: the rule's own columns
 * and its items. A template's values are one JSON column; a following rule's are its own, written
 * by the rule store (writeTemplateValues, server/rules/rules.ts).
 */
import type { RuleSnapshot } from '../rules/changes';
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
