/** Whether a failed toggle is the "rule has issues" answer (docs/screens.md#errors-and-messages): a 400 with rule_filter or rule_task. */
import { itemLabel } from '../../../shared/rules';

export function isRuleIssuesError(error: unknown): boolean {
  const { status, body } = (error ?? {}) as { status?: number; body?: Record<string, unknown> | null };
  return status === 400 && Boolean(body && ('rule_filter' in body || 'rule_task' in body));
}

const leaves = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.flatMap(leaves)
    : value && typeof value === 'object'
      ? Object.values(value).flatMap(leaves)
      : value == null
        ? []
        : [String(value)];

/**
 * The server's reasons for refusing to switch a rule on, as a person reads them: "Turn on at least
 * one task to activate the rule", or "Turn off the ad if CPL is above a value: Enter a value".
 */
export function ruleIssueMessages(error: unknown): string[] {
  const body = ((error ?? {}) as { body?: Record<string, unknown> | null }).body ?? {};
  const messages = ['rule_filter', 'rule_task'].flatMap((part) =>
    Object.entries((body[part] ?? {}) as Record<string, unknown>).flatMap(([item, value]) =>
      item === 'non_field_errors' ? leaves(value) : leaves(value).map((m) => `${itemLabel(item)}: ${m}`),
    ),
  );
  return [...new Set(messages)];
}
