/**
 * A template's row, read with its values complete (the catalogue may have grown since they were
 * saved), and the values a new template starts with.
 */
import { eq } from 'drizzle-orm';
import { ruleTemplates } from '../db/schema/index';
import { notFound } from '../http/errors';
import type { Db } from '../rules/store';
import { NEW_RULE_JUDGING } from '../../shared/judging';
import { defaultFilters, defaultTasks, type RuleValues } from '../../shared/rules';
import { defaultAlertDay, defaultWeek } from '../../shared/schedule';

export type TemplateRow = typeof ruleTemplates.$inferSelect;

export function newTemplateValues(name: string): RuleValues {
  return {
    name,
    is_active: false,
    notify_only: false,
    rule_filter: defaultFilters(),
    rule_task: defaultTasks(),
    rule_schedule: { schedule: defaultWeek(), timezone: 'UTC' },
    rule_alert_schedule: { schedule: defaultAlertDay() },
    judging: NEW_RULE_JUDGING,
    conditions: null,
    action: null,
  };
}

/** The values with every catalogue item present in catalogue order (the catalogue may have grown since they were saved). */
export function completeValues(values: RuleValues): RuleValues {
  const filters = defaultFilters().map((d) => values.rule_filter.find((f) => f.name === d.name) ?? d);
  const tasks = defaultTasks().map((d) => values.rule_task.find((t) => t.name === d.name) ?? d);
  return { ...values, rule_filter: filters, rule_task: tasks };
}

export async function requireTemplate(tx: Db, id: number, forUpdate = false): Promise<TemplateRow> {
  const query = tx.select().from(ruleTemplates).where(eq(ruleTemplates.id, id));
  const [row] = forUpdate ? await query.for('update') : await query;
  if (!row) throw notFound();
  return { ...row, values: completeValues(row.values) };
}
