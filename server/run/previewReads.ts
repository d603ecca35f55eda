/**
 * What Preview reads, as a run of the rule would: the account now (with the hourly delivery and the
 * ads' outcomes when the rule's judging needs them), its on/off history, the rule's exemptions and
 * what its conditions read beside the snapshot. Nothing is recorded but the read kept in the history.
 */
import { readConditionInputs, type ConditionInputs } from '../judgement/conditions/inputs';
import type { AccountSnapshot } from '../judgement/evaluate';
import type { ObjectHistory } from '../judgement/lateData';
import { fetchAccountSnapshot, keepInHistory, type RawAccountRead } from './accountSnapshots';
import { fetchHourly, hourlyHoursOf } from './hourlyRead';
import type { EngineContext } from './pipeline/context';
import { historyHours, judgingHistory, readsHourly } from './pipeline/judgingInputs';
import { exemptionsOf, withOutcomes } from './pipeline/load';
import { readsOutcomes } from '../judgement/outcomeTasks';
import { throwPlatformError } from './platformError';
import type { LoadedEngineRule } from './rulesSource';

export interface PreviewReads {
  readAt: Date;
  snapshot: AccountSnapshot;
  exempt: Set<string>;
  history: Map<string, ObjectHistory>;
  inputs: ConditionInputs | undefined;
}

export async function previewReads(context: EngineContext, rule: LoadedEngineRule): Promise<PreviewReads> {
  const { adAccountId, timezone } = rule.account;
  const readAt = context.now();
  const snapshot = await accountNow(context, rule, readAt);
  const since = new Date(readAt.getTime() - historyHours(rule.judging) * 3_600_000);
  const [exempt, { history }] = await Promise.all([
    exemptionsOf(context.db, rule.id),
    judgingHistory(context.db, snapshot, readAt, since),
  ]);
  const inputs = await readConditionInputs(context.client, adAccountId, timezone, readAt, [rule]).catch(
    throwPlatformError,
  );
  return { readAt, snapshot, exempt, history, inputs };
}

/** The account read now, kept in the metric history, with what the rule's judging reads beside it. */
async function accountNow(context: EngineContext, rule: LoadedEngineRule, readAt: Date): Promise<AccountSnapshot> {
  const { db, client } = context;
  const { adAccountId, currency, timezone } = rule.account;
  const keep = (read: RawAccountRead) => keepInHistory(db, adAccountId, read, readAt, (m) => context.log.warn(m));
  // As a run reads: the hourly delivery only when the rule's judging needs it.
  const [read, hourly] = await Promise.all([
    fetchAccountSnapshot(client, adAccountId, currency, keep).catch(throwPlatformError),
    readsHourly(rule.judging) ? fetchHourly(client, adAccountId, timezone, readAt, hourlyHoursOf(rule.judging)) : {},
  ]);
  const readNow: AccountSnapshot = { ...read, ...hourly, readAt: readAt.toISOString() };
  return readsOutcomes(rule)
    ? (await withOutcomes(context, adAccountId, { id: 0, fetchedAt: readAt, data: readNow })).data
    : readNow;
}
