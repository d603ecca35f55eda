/**
 * A failing rule stops itself: when at least half of a rule's last 20 runs failed (counted from the
 * last time it stopped itself or a person switched it back), it switches to notify only — it keeps
 * running and reporting, and changes nothing — with an activity entry and an alert. A person
 * switches it back with the editor's Notify only switch, which starts the count afresh.
 */
import { and, desc, eq, gt, inArray } from 'drizzle-orm';
import type { Database } from '../db/client';
import { ruleRuns, rules } from '../db/schema/index';
import { createActivityStore, type ActivityRow } from '../activity/entries';
import { sendPlainAlert } from '../alerts/plainAlert';
import { createRuleStore } from '../rules/rules';
import type { EngineContext } from './pipeline/context';
import type { LoadedEngineRule } from './rulesSource';

export const FAILING_WINDOW = 20;
export const FAILING_SHARE = 0.5;

/** The rule's last runs' failures within the window (run and manual kinds), since its count began. */
export async function recentFailures(db: Database, ruleId: number, from: Date | null): Promise<number> {
  const rows = await db
    .select({ status: ruleRuns.status })
    .from(ruleRuns)
    .where(
      and(
        eq(ruleRuns.ruleId, ruleId),
        inArray(ruleRuns.kind, ['run', 'manual']),
        inArray(ruleRuns.status, ['done', 'failed']),
        from ? gt(ruleRuns.startedAt, from) : undefined,
      ),
    )
    .orderBy(desc(ruleRuns.startedAt))
    .limit(FAILING_WINDOW);
  return rows.filter((r) => r.status === 'failed').length;
}

/** Switches the rule to notify only when it fails too often; the entry written, or null. */
export async function stopIfFailing(
  ctx: Pick<EngineContext, 'db' | 'alerts' | 'log' | 'now'>,
  rule: LoadedEngineRule,
): Promise<ActivityRow | null> {
  if (rule.notifyOnly) return null;
  const [row] = await ctx.db.select({ from: rules.failuresCountedFrom }).from(rules).where(eq(rules.id, rule.id));
  const failures = await recentFailures(ctx.db, rule.id, row?.from ?? null);
  if (failures < FAILING_WINDOW * FAILING_SHARE) return null;
  // First caller wins: the rule switches once, however many workers finish failed runs at once.
  if (!(await createRuleStore(ctx.db).switchToNotifyOnly(rule.id))) return null;
  const text = `${failures} of its last ${FAILING_WINDOW} runs failed`;
  ctx.log.warn(`rule ${rule.id} "${rule.name}" switched itself to notify only: ${text}`);
  const entry = await createActivityStore(ctx.db).recordEntry({
    ruleId: rule.id,
    folderId: rule.folder.id,
    action: 'rule_stopped',
    reason: {
      'Switched to notify only': text,
      'What to do': 'check the errors in Activity, then switch Notify only off in the rule editor',
    },
  });
  await sendPlainAlert(
    ctx.alerts,
    {
      subject: `Rule switched to notify only: ${rule.name} (${rule.folder.name})`,
      paragraphs: [
        `Rule "${rule.name}" in ${rule.folder.name} (${rule.account.accountName}) switched itself to notify only: ${text}.`,
        'It keeps running and writes what it would turn off, but changes nothing until a person switches Notify only off in the rule editor.',
      ],
      path: `/activity?rule_id=${rule.id}`,
      label: 'Open its activity',
      folderEmails: rule.folder.alertEmails,
    },
    ctx.log,
  );
  return entry;
}
