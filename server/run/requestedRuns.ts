/**
 * What the API asks of the engine on a user's behalf: Run now, Preview (a dry run through the
 * same evaluator), Undo of a turn-off, and the exemptions an undo leaves behind. Works in any
 * process role (no queue needed): Run now goes through the same ledger and claims as a scheduled run.
 */
import { readConditionInputs } from '../judgement/conditions/inputs';
import { conditionsShown, previewBudgets } from './pipeline/changeBudgets';
import { eq } from 'drizzle-orm';
import type { AdPlatformClient } from '../adplatform/types';
import type { Database } from '../db/client';
import { folders } from '../db/schema/index';
import { ApiError, badRequest, notFound } from '../http/errors';
import { createActivityStore, TURN_OFF_ACTIONS, TURN_ON_FOR, type ActivityRow } from '../activity/entries';
import { evaluate, type AccountSnapshot } from '../judgement/evaluate';
import { fetchHourly, hourlyHoursOf } from './hourlyRead';
import { historyHours, judgingHistory, readsHourly } from './pipeline/judgingInputs';
import { consoleLog } from './startInWorker';
import type { EngineContext, EngineLog, HeldAlerts, RunResult } from './pipeline/context';
import { exemptionsOf, withOutcomes } from './pipeline/load';
import { readsOutcomes } from '../judgement/outcomeTasks';
import type { QualitySource } from '../outcomes/quality';
import { countRun, recordRunFailure } from './pipeline/record';
import { runSlot } from './pipeline/runBatch';
import { loadEngineRule } from './rulesSource';
import { createSnapshotStore, fetchAccountSnapshot, keepInHistory, type RawAccountRead } from './accountSnapshots';
import { blastRadius, type BlastLimits } from '../judgement/blastRadius';
import { radiusOf } from './pipeline/hold';
import type { RunHeartbeat } from './runHeartbeat';
import { approveHeldRun, dismissHeldRun } from './heldRuns';
import { errorMessage } from '../errorMessage';
import { engineActions } from '../observability/counters';
import { actorName, type AuditActor } from '../audit/log';
import type { PreviewAnswerDto } from '../../shared/previewHold';

/** Who asked: the signed-in user, named in the entries as the audit log names them. */
export type Actor = AuditActor;

export interface RuleEngineService {
  runNow(ruleId: number, actor: Actor): Promise<RunResult & { error?: ActivityRow }>;
  preview(ruleId: number): Promise<PreviewAnswerDto>;
  undo(entryId: number, actor: Actor): Promise<ActivityRow>;
  /** Carries out a held run's planned turn-offs that are still valid, exactly once. */
  approve(runId: number, actor: Actor): Promise<RunResult>;
  dismiss(runId: number, actor: Actor): Promise<void>;
}

/** The ad platform answered with a failure the user should see (not a server bug). */
const platformError = (error: unknown) =>
  new ApiError(502, { detail: `The ad platform did not answer: ${errorMessage(error)}` });

export function createRuleEngineService(deps: {
  db: Database;
  client: AdPlatformClient;
  log?: EngineLog;
  now?: () => Date;
  limits?: BlastLimits;
  alerts?: HeldAlerts;
  /** The process's run heartbeat, so a Run now cut off by a crash is found and settled. */
  heartbeat?: RunHeartbeat;
  /** What the ads' leads became, for the outcome tasks (absent: they answer "no outcome data"). */
  quality?: QualitySource;
}): RuleEngineService {
  const { db, client } = deps;
  const now = deps.now ?? (() => new Date());
  const activity = createActivityStore(db);
  const context: EngineContext = {
    db,
    client,
    snapshots: createSnapshotStore(db, { client, now, warn: (m) => (deps.log ?? consoleLog).warn(m) }),
    log: deps.log ?? consoleLog,
    now,
    limits: deps.limits,
    alerts: deps.alerts,
    heartbeat: deps.heartbeat,
    quality: deps.quality,
  };

  async function requireRule(ruleId: number) {
    const rule = await loadEngineRule(db, ruleId);
    if (!rule || rule.isDeleted) throw notFound();
    return rule;
  }

  return {
    async runNow(ruleId, actor) {
      await requireRule(ruleId);
      const run = { ruleId, slot: now(), kind: 'manual' as const, actorId: actor.id, actorName: actorName(actor) };
      try {
        return countRun(run, await runSlot(context, run));
      } catch (error) {
        const entry = await recordRunFailure(context, run, error);
        return { status: 'done', turnedOff: [], failed: [], note: entry.reason.Error ?? 'failed', error: entry };
      }
    },

    async preview(ruleId) {
      const rule = await requireRule(ruleId);
      const { adAccountId, currency, timezone } = rule.account;
      const readAt = now();
      const keep = (read: RawAccountRead) => keepInHistory(db, adAccountId, read, readAt, (m) => context.log.warn(m));
      // What a run reads: the hourly delivery when the rule's judging needs it, and the on/off history.
      const [read, hourly] = await Promise.all([
        fetchAccountSnapshot(client, adAccountId, currency, keep).catch((error: unknown) => {
          throw platformError(error);
        }),
        readsHourly(rule.judging)
          ? fetchHourly(client, adAccountId, timezone, readAt, hourlyHoursOf(rule.judging))
          : {},
      ]);
      const readNow: AccountSnapshot = { ...read, ...hourly, readAt: readAt.toISOString() };
      const snapshot = readsOutcomes(rule)
        ? (await withOutcomes(context, adAccountId, { id: 0, fetchedAt: readAt, data: readNow })).data
        : readNow;
      const since = new Date(readAt.getTime() - historyHours(rule.judging) * 3_600_000);
      const [exempt, { history }] = await Promise.all([
        exemptionsOf(db, ruleId),
        judgingHistory(db, snapshot, readAt, since),
      ]);
      const inputs = await readConditionInputs(client, adAccountId, timezone, readAt, [rule]).catch(
        (error: unknown) => {
          throw platformError(error);
        },
      );
      const evaluation = evaluate(rule, snapshot, { exempt, history, now: readAt, ...(inputs ? { inputs } : {}) });
      const { actions, problems, deliveringAds } = evaluation;
      const budgets = await previewBudgets(context, rule, { fetchedAt: readAt, data: snapshot }, evaluation, inputs);
      // What the run's decision would weigh: the same limit, the same turn-offs and budget changes.
      const radius = budgets
        ? radiusOf(context, { ...budgets.item, planned: actions })
        : blastRadius(evaluation, actions, snapshot, context.limits);
      const adNames = new Map(snapshot.ads.map((ad) => [ad.id, ad.name]));
      const campaignNames = new Map(snapshot.campaigns.map((c) => [c.id, c.name]));
      return {
        rule: { id: rule.id, name: rule.name },
        account: { ad_account_id: rule.account.adAccountId, account_name: rule.account.accountName },
        checked_at: now().toISOString(),
        count: actions.length,
        delivering: deliveringAds,
        results: actions.map((a) => ({
          action: a.action,
          ad_id: a.objectId,
          ad_name: (a.action === 'turn_off_ad' ? adNames.get(a.objectId) : campaignNames.get(a.objectId)) ?? '',
          campaign_id: a.campaignId,
          campaign_name: campaignNames.get(a.campaignId) ?? '',
          task: a.task,
          reason: a.reason,
        })),
        exempt: [...exempt],
        problems,
        ...(budgets ? { budget_changes: budgets.budgets, money: budgets.money } : {}),
        ...(rule.conditions && rule.action ? { conditions: conditionsShown(evaluation) } : {}),
        hold: {
          held: radius.exceeded && !rule.notifyOnly,
          summary: radius.exceeded ? radius.summary : '',
          affected: radius.numbers.affected,
          delivering: radius.numbers.delivering,
          actions: radius.numbers.actions,
          max_share: radius.numbers.maxShare,
          max_actions: radius.numbers.maxActions,
        },
        notify_only: rule.notifyOnly,
      };
    },

    async approve(runId, actor) {
      try {
        return await approveHeldRun(context, runId, { id: actor.id, name: actorName(actor) }, (id) =>
          loadEngineRule(db, id),
        );
      } catch (error) {
        if (error instanceof ApiError) throw error;
        throw platformError(error);
      }
    },

    async dismiss(runId, actor) {
      await dismissHeldRun(context, runId, { id: actor.id, name: actorName(actor) });
    },

    async undo(entryId, actor) {
      const entry = await activity.entryById(entryId);
      if (entry?.state !== 'done') throw notFound();
      if (!(TURN_OFF_ACTIONS as readonly string[]).includes(entry.action))
        throw badRequest('Only a turn-off can be undone.');
      if (entry.undoneAt) throw badRequest('This action was already undone.');
      // Sent with the token of the connection serving the entry's ad account.
      const [folder] = entry.folderId
        ? await db.select({ accountId: folders.adAccountId }).from(folders).where(eq(folders.id, entry.folderId))
        : [];
      const [result] = await client
        .setStatuses([{ id: entry.adId!, status: 'ACTIVE' }], { accountId: folder?.accountId ?? undefined })
        .catch((error: unknown) => {
          throw platformError(error);
        });
      if (!result?.ok) throw platformError(result?.error ?? 'no answer');
      // Claim the undo first: of two users pressing Undo at once, one entry is written.
      if (!(await activity.claimUndo(entryId, now()))) throw badRequest('This action was already undone.');
      if (entry.ruleId !== null) await activity.exempt(entry.ruleId, entry.adId!, actor.id);
      engineActions.inc({ action: TURN_ON_FOR[entry.action]!, result: 'done' });
      return activity.recordEntry({
        ruleId: entry.ruleId,
        folderId: entry.folderId,
        action: TURN_ON_FOR[entry.action]!,
        adId: entry.adId,
        objectType: entry.objectType,
        actorId: actor.id,
        reason: {
          Undo: `of entry #${entry.id} by ${actorName(actor)}`,
          Exempt:
            entry.ruleId !== null
              ? 'the rule leaves this object alone until the exemption is removed'
              : 'the rule no longer exists',
        },
      });
    },
  };
}
