/** Whether a failed toggle is the "rule has issues" answer (docs/screens.md#errors-and-messages): a 400 with rule_filter or rule_task. */
export function isRuleIssuesError(error: unknown): boolean {
  const { status, body } = (error ?? {}) as { status?: number; body?: Record<string, unknown> | null };
  return status === 400 && Boolean(body && ('rule_filter' in body || 'rule_task' in body));
}
