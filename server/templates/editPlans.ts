/**
 * What an edit of a template does, written nowhere: the template's values before and after, and
 * each follower's values under them. The edit itself and its preview both start from it.
 */
import { ruleChangesText } from '../rules/changes';
import { applyRulePatch, type RulePatchBody } from '../rules/ruleUpdate';
import type { Db } from '../rules/store';
import { differingFields, inheritedValues, type RuleValues, type TemplateField } from '../../shared/templates';
import { followersOf, valuesOfRule, type Follower } from './followers';
import { completeValues, requireTemplate } from './templateRows';
import { snapshotOfValues, valuesOfSnapshot } from './values';

/** A follower's values under the template's, and what moves. */
export interface FollowerPlan {
  follower: Follower;
  current: RuleValues;
  next: RuleValues;
  changes: TemplateField[];
}

export async function planFollowers(db: Db, template: RuleValues, followers: Follower[]): Promise<FollowerPlan[]> {
  const plans: FollowerPlan[] = [];
  for (const follower of followers) {
    const { values: current } = await valuesOfRule(db, follower.ruleId);
    const next = inheritedValues(template, current, follower.overrides);
    plans.push({ follower, current, next, changes: differingFields(current, next) });
  }
  return plans;
}

/** The template with the edit applied, and what it does to each follower; nothing written. */
export async function planEdit(tx: Db, id: number, patch: RulePatchBody, forUpdate: boolean) {
  const template = await requireTemplate(tx, id, forUpdate);
  const followers = await followersOf(tx, id, forUpdate);
  const before = template.values;
  const afterSnapshot = applyRulePatch(snapshotOfValues(before), patch).after;
  const after = completeValues(valuesOfSnapshot(afterSnapshot));
  const plans = await planFollowers(tx, after, followers);
  return {
    template,
    followers,
    before,
    after,
    plans,
    text: ruleChangesText(snapshotOfValues(before), afterSnapshot),
  };
}
