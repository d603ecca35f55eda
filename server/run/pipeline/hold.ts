/**
 * Hold: a run over the blast-radius limit (../blastRadius.ts) acts on nothing. It leaves an
 * activity entry (action run_held) and, where alerts are set up, a mail — once — then its record
 * keeps the planned turn-offs for Approve or Dismiss (../heldRuns.ts).
 */
import { reasonText, renderMessage, userText } from '../../mail/template';
import { createActivityStore, type ActivityRow } from '../../activity/entries';
import { blastRadius, type BudgetRadius } from '../../judgement/blastRadius';
import { DEFAULT_BUDGET_LIMITS } from '../../../shared/budgetLimits';
import { addedBy, budgetRecord } from './changeBudgets';
import type { PlannedAction } from '../../judgement/evaluate';
import { ruleNamesInMail } from '../../alerts/mailNames';
import { sendOnce } from '../../alerts/mailOnce';
import { type AlertParts, slackMessage } from '../../alerts/slackMessage';
import { addresseesOf } from '../../alerts/recipients';
import { queueWebhooks } from '../../alerts/engineWebhooks';
import type { LoadedEngineRule } from '../rulesSource';
import { slotLabel } from '../../judgement/scheduleSlots';
import { baseRecord, details, type InBatch } from './batch';
import type { EngineContext, SlotRun } from './context';

export const radiusOf = (ctx: EngineContext, item: InBatch) =>
  blastRadius(item.evaluation!, item.planned!, item.snapshot!.data, ctx.limits, budgetRadiusOf(item));

function budgetRadiusOf(item: InBatch): BudgetRadius | undefined {
  const fates = (item.budgetFates ?? []).filter((f) => f.skipped === null);
  // A turn_on rule's turn-ons count as changes too (they spend money again).
  const turnOns = item.evaluation?.turnOns.length ?? 0;
  if (!fates.length && !turnOns) return undefined;
  const limit = (item.rule.folder.budgetLimits ?? DEFAULT_BUDGET_LIMITS).daily_increase_limit;
  return {
    changes: fates.length + turnOns,
    added: addedBy(item),
    addedLastDay: item.addedLastDay ?? 0,
    limit: limit === null ? null : Math.round(limit * 100),
    currency: item.rule.account.currency,
  };
}

export async function hold(ctx: EngineContext, item: InBatch): Promise<void> {
  const radius = radiusOf(ctx, item);
  const { rule, run, runId, planned } = item;
  try {
    const budgets = budgetRecord(item);
    const entry = await alertHeldRun(ctx, {
      rule,
      run,
      runId: runId!,
      planned: planned!,
      summary: radius.summary,
      ...(budgets.money ? { money: budgets.money.text } : {}),
    });
    const note = `held: ${radius.summary}`;
    const record = details(item.evaluation!, 'hold', item.stale!, {
      planned,
      limits: radius.numbers,
      ...(budgets.money
        ? {
            budgets: budgets.budgets,
            money: budgets.money,
            plannedBudgets: (item.budgetFates ?? []).filter((f) => f.skipped === null).map((f) => f.plan),
          }
        : {}),
    });
    item.finish = { status: 'done', note, record: { ...baseRecord(item), outcome: 'held', ...record } };
    item.result = { status: 'held', turnedOff: [], failed: [], note, runId, entries: entry ? [entry] : [] };
  } catch (error) {
    item.error = error;
  }
}

/**
 * The held run's page: the rule editor with the run open, Approve and Dismiss under it. A link, not
 * a credential: a signed-out person signs in first and is brought back to it (the login screen).
 */
export const heldRunUrl = (publicUrl: string, ruleId: number, runId: number) =>
  `${publicUrl}/edit-rule/${ruleId}?run=${runId}`;

/** In Slack, Approve and Dismiss buttons: both open the run, where the person decides (signed in). */
const heldRunSlackParts = (parts: AlertParts, runUrl: string): AlertParts => ({
  ...parts,
  actions: [
    { label: 'Approve', url: runUrl, style: 'primary' },
    { label: 'Dismiss', url: runUrl },
  ],
});

const held = (action: PlannedAction) =>
  `${action.action.replaceAll('_', ' ')} ${userText(action.objectId)}: ${reasonText(action.reason)}`;

/** The activity entry of a held run (action run_held) and, where alerts are set up, its mail — once. */
export async function alertHeldRun(
  ctx: Pick<EngineContext, 'db' | 'alerts' | 'log'>,
  input: {
    rule: LoadedEngineRule;
    run: SlotRun;
    runId: number;
    planned: PlannedAction[];
    summary: string;
    /** The budget changes' money ("+$1,240/day across 14 ad sets"), when the run changes budgets. */
    money?: string;
  },
): Promise<ActivityRow | null> {
  const { rule, run, runId, planned, summary } = input;
  const reason = {
    Held: summary,
    Planned: `${planned.length} turn-off${planned.length === 1 ? '' : 's'}, waiting for approval`,
    ...(input.money ? { Budgets: `${input.money}, waiting for approval` } : {}),
    Run: run.kind === 'manual' ? 'Run now' : `${slotLabel({ instant: run.slot }, rule.timezone)} run`,
  };
  const alerts = ctx.alerts;
  if (!alerts) {
    return createActivityStore(ctx.db).recordHeldRun({
      ruleId: rule.id,
      folderId: rule.folder.id,
      slot: run.slot,
      reason,
      runId,
    });
  }
  const { mailer, to } = addresseesOf(alerts, rule.folder.alertEmails);
  const names = ruleNamesInMail(rule);
  // The link opens the run in the rule editor, where it can be approved or dismissed (on a phone too).
  const runUrl = heldRunUrl(alerts.publicUrl, rule.id, runId);
  const parts = {
    title: `Held for approval: ${names.rule} (${names.folder})`,
    paragraphs: [
      `Rule "${names.rule}" in ${names.folder} (${names.account}) acted on nothing: it ${summary}.`,
      ...(input.money ? [`Budget changes: ${input.money}.`] : []),
      'A person with the right to change rules can approve or dismiss these changes:',
      ...planned.slice(0, 50).map(held),
      ...(planned.length > 50 ? [`… and ${planned.length - 50} more`] : []),
    ],
    action: { label: 'Review and approve', url: runUrl },
  };
  const result = await sendOnce(
    ctx.db,
    mailer,
    {
      ruleId: rule.id,
      folderId: rule.folder.id,
      slot: run.slot,
      action: 'run_held',
      runId,
      compose: async () => ({ reason, message: { to, subject: parts.title, ...renderMessage(parts) } }),
    },
    alerts.sender,
  );
  if (result.status === 'nothing_to_send') return null;
  await queueWebhooks(ctx, alerts.webhooks, {
    source: 'held_run',
    sourceKey: String(result.entry.id),
    folderId: rule.folder.id,
    message: slackMessage(heldRunSlackParts(parts, runUrl)),
  });
  return result.entry;
}
