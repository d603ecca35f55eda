/** The audit text of a rule's judging settings: old → new per setting that moved. */
import { describeChanges } from '../audit/log';
import { windowName, type RuleJudging } from '../../shared/judging';

const hours = (n: number | null) => (n === null ? 'off' : `${n} h`);

export function judgingChangesText(before: RuleJudging, after: RuleJudging): string {
  const text = describeChanges({
    'Judge after': [hours(before.maturity_hours), hours(after.maturity_hours)],
    'Judge after impressions': [String(before.maturity_impressions), String(after.maturity_impressions)],
    'Lead lag allowance': [hours(before.lag_hours), hours(after.lag_hours)],
    Revive: [hours(before.revive_hours), hours(after.revive_hours)],
    'Cool-down': [hours(before.cooldown_hours), hours(after.cooldown_hours)],
    'Counts leads in': [windowName(before.attribution_window), windowName(after.attribution_window)],
  });
  const adopted = before.carried_over && !after.carried_over ? 'Judging settings: now the rule’s own' : '';
  return [text, adopted].filter(Boolean).join('; ');
}
