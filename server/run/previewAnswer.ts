/** Preview's answer: what the rule would do now, named as the screen shows it, and whether a run would be held. */
import type { PreviewAnswerDto, PreviewHoldDto } from '../../shared/previewHold';
import type { BlastRadius } from '../judgement/blastRadius';
import type { AccountSnapshot, Evaluation, PlannedAction } from '../judgement/evaluate';
import { conditionsShown, type previewBudgets } from './pipeline/changeBudgets';
import type { LoadedEngineRule } from './rulesSource';

/** A rule judged by Preview: the snapshot it judged, its verdicts, budget changes and blast radius. */
export interface JudgedPreview {
  rule: LoadedEngineRule;
  snapshot: AccountSnapshot;
  exempt: Set<string>;
  evaluation: Evaluation;
  budgets: Awaited<ReturnType<typeof previewBudgets>>;
  radius: BlastRadius;
  checkedAt: Date;
}

export function previewAnswer({
  rule,
  snapshot,
  exempt,
  evaluation,
  budgets,
  radius,
  checkedAt,
}: JudgedPreview): PreviewAnswerDto {
  const { actions, problems, deliveringAds } = evaluation;
  return {
    rule: { id: rule.id, name: rule.name },
    account: { ad_account_id: rule.account.adAccountId, account_name: rule.account.accountName },
    checked_at: checkedAt.toISOString(),
    count: actions.length,
    delivering: deliveringAds,
    results: previewResults(actions, snapshot),
    exempt: [...exempt],
    problems,
    ...(budgets ? { budget_changes: budgets.budgets, money: budgets.money } : {}),
    ...(rule.conditions && rule.action ? { conditions: conditionsShown(evaluation) } : {}),
    hold: previewHold(rule, radius),
    notify_only: rule.notifyOnly,
  };
}

/** Each turn-off the rule would make, with the ad's (or campaign's) and the campaign's names. */
function previewResults(actions: PlannedAction[], snapshot: AccountSnapshot): PreviewAnswerDto['results'] {
  const adNames = new Map(snapshot.ads.map((ad) => [ad.id, ad.name]));
  const campaignNames = new Map(snapshot.campaigns.map((c) => [c.id, c.name]));
  return actions.map((a) => ({
    action: a.action,
    ad_id: a.objectId,
    ad_name: (a.action === 'turn_off_ad' ? adNames.get(a.objectId) : campaignNames.get(a.objectId)) ?? '',
    campaign_id: a.campaignId,
    campaign_name: campaignNames.get(a.campaignId) ?? '',
    task: a.task,
    reason: a.reason,
  }));
}

/** Whether a run now would be held for approval (a notify-only rule never is), and the numbers judged. */
const previewHold = (rule: LoadedEngineRule, radius: BlastRadius): PreviewHoldDto => ({
  held: radius.exceeded && !rule.notifyOnly,
  summary: radius.exceeded ? radius.summary : '',
  affected: radius.numbers.affected,
  delivering: radius.numbers.delivering,
  actions: radius.numbers.actions,
  max_share: radius.numbers.maxShare,
  max_actions: radius.numbers.maxActions,
});
