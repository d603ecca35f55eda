/** Preview: a dry run of one rule through the same reads and evaluator as a run, acting on nothing. */
import type { PreviewAnswerDto } from '../../shared/previewHold';
import { blastRadius } from '../judgement/blastRadius';
import { evaluate } from '../judgement/evaluate';
import { previewBudgets } from './pipeline/changeBudgets';
import type { EngineContext } from './pipeline/context';
import { radiusOf } from './pipeline/hold';
import { previewAnswer } from './previewAnswer';
import { previewReads } from './previewReads';
import { requireEngineRule } from './requiredRule';

export function previewOf(context: EngineContext) {
  return {
    async preview(ruleId: number): Promise<PreviewAnswerDto> {
      const rule = await requireEngineRule(context.db, ruleId);
      const { readAt, snapshot, exempt, history, inputs } = await previewReads(context, rule);
      const evaluation = evaluate(rule, snapshot, { exempt, history, now: readAt, ...(inputs ? { inputs } : {}) });
      const budgets = await previewBudgets(context, rule, { fetchedAt: readAt, data: snapshot }, evaluation, inputs);
      // What the run's decision would weigh: the same limit, the same turn-offs and budget changes.
      const radius = budgets
        ? radiusOf(context, { ...budgets.item, planned: evaluation.actions })
        : blastRadius(evaluation, evaluation.actions, snapshot, context.limits);
      return previewAnswer({ rule, snapshot, exempt, evaluation, budgets, radius, checkedAt: context.now() });
    },
  };
}
