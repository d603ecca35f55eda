/**
 * A rule and its template: following, leaving, released when the template is deleted, and taking
 * its values. server/templates/ calls these in its own transactions, on a store built on that
 * transaction.
 */
import { eq, sql } from 'drizzle-orm';
import type { RuleValues, TemplateField } from '../../shared/templates';
import type { Database } from '../db/client';
import { rules } from '../db/schema/index';
import { saveItems } from './store';

export function ruleTemplateLinksOf(db: Database) {
  /** The rule follows the template from now on, keeping the given fields as its own. */
  async function followTemplate(ruleId: number, templateId: number, overrides: TemplateField[]): Promise<void> {
    await db
      .update(rules)
      .set({ templateId, templateOverrides: overrides, updatedAt: sql`now()` })
      .where(eq(rules.id, ruleId));
  }

  /**
   * A rule just added for a template (insertRule) follows it, overriding nothing, and takes its
   * notify only, which insertRule does not set; its updated_at stays its creation's.
   */
  async function followTemplateFromStart(ruleId: number, templateId: number, notifyOnly: boolean): Promise<void> {
    await db.update(rules).set({ templateId, templateOverrides: [], notifyOnly }).where(eq(rules.id, ruleId));
  }

  /** The rule stops following its template and keeps its values. */
  async function leaveTemplate(ruleId: number): Promise<void> {
    await db
      .update(rules)
      .set({ templateId: null, templateOverrides: [], updatedAt: sql`now()` })
      .where(eq(rules.id, ruleId));
  }

  /** A template being deleted: its followers keep their values and become rules of their own. */
  async function releaseFollowersOf(templateId: number): Promise<void> {
    await db.update(rules).set({ templateId: null, templateOverrides: [] }).where(eq(rules.templateId, templateId));
  }

  /**
   * Writes a template's values over a rule's columns and items (`templateOverrides`: its overrides
   * afterwards, when they change). A rule switched off or to notify only by it no longer wants its
   * held turn-offs: the caller dismisses them (as a person's save does, ./ruleEdits.ts).
   */
  async function writeTemplateValues(
    ruleId: number,
    values: RuleValues,
    { templateOverrides }: { templateOverrides?: TemplateField[] } = {},
  ): Promise<void> {
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
        ...(templateOverrides ? { templateOverrides } : {}),
        updatedAt: sql`now()`,
      })
      .where(eq(rules.id, ruleId));
    await saveItems(db, ruleId, [...values.rule_filter, ...values.rule_task]);
  }

  return { followTemplate, followTemplateFromStart, leaveTemplate, releaseFollowersOf, writeTemplateValues };
}
