/**
 * `PATCH /api/rule/{id}/`: the payload's shape (the route's body schema), merging the changed items into the stored rule,
 * and the checks of docs/contract.md#validation on the result — an active rule must be complete (400 rule_filter / rule_task),
 * conditions and an action come together (400 conditions / action).
 */
import { z } from 'zod';
import { ApiError, ValidationError } from '../http/errors';
import {
  RULE_MESSAGES,
  isFilterName,
  isTaskName,
  normaliseFilterValues,
  normaliseTaskValues,
  validateRuleItems,
  type FilterItem,
  type TaskItem,
} from '../../shared/rules';
import { isDaySchedule, isWeekSchedule } from '../../shared/schedule';
import { hasNoControlCharacters, MESSAGES } from '../../shared/validation';
import type { RuleSnapshot } from './changes';
import { isValidTimezone } from './timezones';
import { applyJudgingPatch, judgingPatchSchema } from '../../shared/judging';
import { actionField, conditionsField, pairErrors } from './ruleConditionFields';

const scalar = z.union([z.string(), z.number(), z.null()]);

const filterPatch = z.object({
  id: z.number().optional(),
  name: z.string({ error: MESSAGES.required }),
  type: z.literal('rule_filter').optional(),
  values: z.array(scalar, { error: 'Expected a list' }).optional(),
  is_active: z.boolean().optional(),
});

const taskPatch = z.object({
  id: z.number().optional(),
  name: z.string({ error: MESSAGES.required }),
  type: z.literal('rule_task').optional(),
  values: z.record(z.string(), scalar, { error: 'Expected an object of values' }).optional(),
  is_active: z.boolean().optional(),
});

export const rulePatchSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, MESSAGES.required)
    .max(200, MESSAGES.max(200))
    .refine(hasNoControlCharacters, MESSAGES.controlCharacters)
    .optional(),
  is_active: z.boolean({ error: 'Must be true or false' }).optional(),
  notify_only: z.boolean({ error: 'Must be true or false' }).optional(),
  rule_filter: z.array(filterPatch).optional(),
  rule_task: z.array(taskPatch).optional(),
  rule_schedule: z
    .object({
      schedule: z.unknown().refine(isWeekSchedule, RULE_MESSAGES.scheduleShape).optional(),
      timezone: z.string().refine(isValidTimezone, RULE_MESSAGES.unknownTimezone).optional(),
    })
    .optional(),
  rule_alert_schedule: z
    .object({ schedule: z.unknown().refine(isDaySchedule, RULE_MESSAGES.alertScheduleShape) })
    .optional(),
  judging: judgingPatchSchema.optional(),
  /** Absent: unchanged; null: none. */
  conditions: conditionsField.optional(),
  action: actionField.optional(),
});

export type RulePatchBody = z.infer<typeof rulePatchSchema>;

/** The stored rule with the payload applied, or 400 field errors (unknown items, invalid values). */
export function applyRulePatch(
  before: RuleSnapshot,
  patch: RulePatchBody,
): { after: RuleSnapshot; changedItems: (FilterItem | TaskItem)[] } {
  const unknown: {
    rule_filter?: Record<string, string[]>;
    rule_task?: Record<string, { non_field_errors: string[] }>;
  } = {};
  const changedItems: (FilterItem | TaskItem)[] = [];

  const filters = before.filters.map((f) => ({ ...f }));
  for (const item of patch.rule_filter ?? []) {
    const target = isFilterName(item.name) ? filters.find((f) => f.name === item.name) : undefined;
    if (!target) {
      unknown.rule_filter = { ...unknown.rule_filter, [item.name]: ['Unknown filter'] };
      continue;
    }
    if (item.values) target.values = normaliseFilterValues(item.values);
    // The contains filter always applies (docs/engine.md); only the other one can be switched.
    if (item.is_active !== undefined && target.name !== 'campaign_name_contains') target.is_active = item.is_active;
    changedItems.push(target);
  }

  const tasks = before.tasks.map((t) => ({ ...t, values: { ...t.values } }));
  for (const item of patch.rule_task ?? []) {
    const target = isTaskName(item.name) ? tasks.find((t) => t.name === item.name) : undefined;
    if (!target) {
      unknown.rule_task = { ...unknown.rule_task, [item.name]: { non_field_errors: ['Unknown task'] } };
      continue;
    }
    if (item.values) target.values = normaliseTaskValues(target.name, { ...target.values, ...item.values });
    if (item.is_active !== undefined) target.is_active = item.is_active;
    changedItems.push(target);
  }
  if (unknown.rule_filter || unknown.rule_task) throw new ValidationError(unknown as never);

  const after: RuleSnapshot = {
    name: patch.name ?? before.name,
    isActive: patch.is_active ?? before.isActive,
    notifyOnly: patch.notify_only ?? before.notifyOnly,
    schedule: (patch.rule_schedule?.schedule as boolean[][] | undefined) ?? before.schedule,
    timezone: patch.rule_schedule?.timezone ?? before.timezone,
    alertSchedule: (patch.rule_alert_schedule?.schedule as boolean[] | undefined) ?? before.alertSchedule,
    judging: patch.judging ? applyJudgingPatch(before.judging, patch.judging) : before.judging,
    conditions: patch.conditions === undefined ? before.conditions : patch.conditions,
    action: patch.action === undefined ? before.action : patch.action,
    filters,
    tasks,
  };

  const errors = {
    ...validateRuleItems(after.filters, after.tasks, {
      active: after.isActive,
      acts: !!(after.conditions && after.action),
    }),
    ...pairErrors(after.conditions, after.action),
  };
  if (Object.keys(errors).length) throw new ApiError(400, errors as Record<string, unknown>);
  return { after, changedItems };
}
