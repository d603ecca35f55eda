/** The audit text of a rule's conditions and action: "Conditions: … → …", "Action: … → …". */
import { describeChanges } from '../audit/log';
import { conditionText, isGroup, type ConditionGroup, type ConditionNode } from '../../shared/ruleConditions';
import { actionText, type RuleAction } from '../../shared/ruleActions';

const nodeText = (node: ConditionNode, nested: boolean): string =>
  isGroup(node) ? groupText(node, nested) : conditionText(node);

/** "Spend (today) ≥ 40 and (CPL (last 7 days) > 50 or CTR (today) < 0.5)". */
export function groupText(group: ConditionGroup, nested = false): string {
  const text = group.conditions.map((node) => nodeText(node, true)).join(group.match === 'all' ? ' and ' : ' or ');
  return nested && group.conditions.length > 1 ? `(${text})` : text;
}

const conditionsText = (c: ConditionGroup | null) => (c ? groupText(c) : 'none');
const actionTextOf = (a: RuleAction | null) => (a ? actionText(a) : 'none');

type ConditionFields = { conditions: ConditionGroup | null; action: RuleAction | null };

/**
 * "Conditions: none → Spend (today) ≥ 40; Action: none → Turn off the ad"; '' when neither moved.
 * Compared as read: the text names every part of a condition and an action.
 */
export function conditionChangesText(before: ConditionFields, after: ConditionFields): string {
  return describeChanges({
    Conditions: [conditionsText(before.conditions), conditionsText(after.conditions)],
    Action: [actionTextOf(before.action), actionTextOf(after.action)],
  });
}

/** What a new rule was given: "Conditions: …; Action: …", '' when neither. */
export function conditionValuesText({ conditions, action }: ConditionFields): string {
  return [conditions ? `Conditions: ${groupText(conditions)}` : '', action ? `Action: ${actionText(action)}` : '']
    .filter(Boolean)
    .join('; ');
}
