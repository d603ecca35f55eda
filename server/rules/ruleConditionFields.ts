/**
 * A rule's `conditions` and `action` in the rule API: the payload fields (each refusal under the
 * field it is about), the check that they come together, and reading stored values back (the
 * engine's rule loading too). Their audit text is conditionChanges.ts.
 */
import { z } from 'zod';
import { ruleConditionsSchema, type ConditionGroup } from '../../shared/ruleConditions';
import { ACTION_MESSAGES, ruleActionFieldSchema, type RuleAction } from '../../shared/ruleActions';
import type { FieldErrors } from '../../shared/validation';

type Issue = z.core.$ZodIssue;
type Path = PropertyKey[];

const valueAt = (root: unknown, path: Path): unknown =>
  path.reduce<unknown>(
    (v, key) => (v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[key] : undefined),
    root,
  );

/** A node the caller meant as a group: it names a match or holds conditions. */
const meantAsGroup = (value: unknown) =>
  !!value && typeof value === 'object' && ('conditions' in value || 'match' in value);

/**
 * A condition is either a metric condition or a group: when neither fits, zod answers "Invalid
 * input" for the node. The issues of the kind the caller meant (a group when it names a match or
 * holds conditions) say which field is wrong, so they are given instead, however deep.
 */
export function explainIssues(issues: readonly Issue[], input: unknown, prefix: Path = []): Issue[] {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    if (issue.code !== 'invalid_union' || issue.errors.length !== 2) return [{ ...issue, path } as Issue];
    const branch = issue.errors[meantAsGroup(valueAt(input, issue.path)) ? 1 : 0]!;
    const nodeInput = valueAt(input, issue.path);
    return explainIssues(branch, nodeInput, path);
  });
}

/** `conditions` in a payload: a group (3 deep at most, 20 conditions at most) or null. */
export const conditionsField = z
  .unknown()
  .transform((value, ctx): ConditionGroup | null => {
    const parsed = ruleConditionsSchema.safeParse(value);
    if (parsed.success) return parsed.data;
    for (const issue of explainIssues(parsed.error.issues, value))
      ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    return z.NEVER;
  })
  .meta({
    description:
      'A group {match: "all" | "any", conditions: [metric condition | group]} (docs/api.md, "Conditions and action"), or null for none',
  });

/** `action` in a payload: what the conditions do, or null. */
export const actionField = ruleActionFieldSchema;

/** Conditions and an action come together: one without the other is refused under the one given. */
export function pairErrors(conditions: ConditionGroup | null, action: RuleAction | null): FieldErrors | null {
  if (action && !conditions) return { action: [ACTION_MESSAGES.conditionsNeeded] };
  if (conditions && !action) return { conditions: [ACTION_MESSAGES.actionNeeded] };
  return null;
}

/** A stored value read back: null when it no longer reads (a shape that changed since), with why. */
export function readStoredConditions(stored: unknown): { value: ConditionGroup | null; error?: string } {
  if (stored === null || stored === undefined) return { value: null };
  const parsed = ruleConditionsSchema.safeParse(stored);
  if (parsed.success) return { value: parsed.data };
  const [first] = explainIssues(parsed.error.issues, stored);
  return { value: null, error: first ? `${['conditions', ...first.path].join('.')}: ${first.message}` : 'unreadable' };
}

export function readStoredAction(stored: unknown): { value: RuleAction | null; error?: string } {
  if (stored === null || stored === undefined) return { value: null };
  const parsed = ruleActionFieldSchema.safeParse(stored);
  if (parsed.success) return { value: parsed.data };
  const [first] = parsed.error.issues;
  return { value: null, error: first ? `${['action', ...first.path].join('.')}: ${first.message}` : 'unreadable' };
}
