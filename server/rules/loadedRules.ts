/**
 * What the rule store reads off a rule loaded with its folder (LoadedRule, ./store.ts): its values
 * as a snapshot, what its audit entries name, and whether it is in the trash.
 */
import { readJudging } from '../../shared/judging';
import { badRequest } from '../http/errors';
import type { RuleSnapshot } from './changes';
import { auditFolder } from './context';
import { readStoredAction, readStoredConditions } from './ruleConditionFields';
import type { LoadedRule } from './store';

export const snapshotOf = ({ rule, items }: LoadedRule): RuleSnapshot => ({
  name: rule.name,
  isActive: rule.isActive,
  notifyOnly: rule.notifyOnly,
  schedule: rule.schedule,
  timezone: rule.timezone,
  alertSchedule: rule.alertSchedule,
  judging: readJudging(rule.judging),
  conditions: readStoredConditions(rule.conditions).value,
  action: readStoredAction(rule.action).value,
  filters: items.rule_filter,
  tasks: items.rule_task,
});

export const auditRefs = ({ rule, folder, account }: LoadedRule) => ({
  folder: auditFolder(folder, account),
  rule: { id: rule.id, name: rule.name },
});

export const inTrash = () => badRequest('This rule is in the trash. Restore it before changing it.');
export const isTrashed = ({ rule, folder }: LoadedRule) => rule.isDeleted || folder.isDeleted;
