/** Whether values make a valid rule (a template's, or a follower's under it): the first reason they do not, in words. */
import { pairErrors } from '../rules/ruleConditionFields';
import { itemLabel, validateRuleItems, type RuleValues } from '../../shared/rules';

/** The first reason the values are not a valid rule, in words, or null. */
export function invalidReason(values: RuleValues): string | null {
  const errors = {
    ...validateRuleItems(values.rule_filter, values.rule_task, {
      active: values.is_active,
      acts: !!(values.conditions && values.action),
    }),
    ...pairErrors(values.conditions, values.action),
  };
  const found: string[] = [];
  const walk = (node: unknown, label: string) => {
    if (Array.isArray(node)) found.push(`${label}: ${node.join(' ')}`);
    else if (node && typeof node === 'object')
      for (const [key, child] of Object.entries(node))
        walk(child, key === 'non_field_errors' ? label : itemLabel(key) === key ? label || key : itemLabel(key));
  };
  walk(errors, '');
  return found.length ? found.join('; ').replace(/^: /, '') : null;
}
