/**
 * A rule's edits: a person's save (audited, its held runs dismissed when it stops acting) and the
 * engine's switch of a rule that fails too often to notify only. Both run in the writes' lane.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { RuleDto } from '../../shared/rules';
import { overridesAfterEdit } from '../../shared/templates';
import { auditWith, type AuditActor } from '../audit/log';
import type { Database } from '../db/client';
import { rules } from '../db/schema/index';
import { createLedgerStore } from '../run/ledger';
import { valuesOfSnapshot } from '../templates/values';
import { AUDIT_ACTIONS, ruleChangesText, type RuleSnapshot } from './changes';
import { auditRefs, inTrash, isTrashed, snapshotOf } from './loadedRules';
import { applyRulePatch, type RulePatchBody } from './ruleUpdate';
import { requireRule, ruleDto, saveItems, type LoadedRule } from './store';

/**
 * A rule switched off or to notify-only no longer wants its held turn-offs: they are dismissed in
 * the same statement as the switch, so nobody approves what the rule's owner just stopped.
 */
const heldRunsDismissed = (tx: Database, ruleId: number, actor: AuditActor) =>
  tx.$with('held_runs_dismissed').as(createLedgerStore(tx).dismissHeldRuns(ruleId, actor.id));

/** The rule's columns after a person's edit. */
const editedColumns = (
  loaded: LoadedRule,
  before: RuleSnapshot,
  after: RuleSnapshot,
): PgUpdateSetSource<typeof rules> => ({
  name: after.name,
  isActive: after.isActive,
  notifyOnly: after.notifyOnly,
  schedule: after.schedule,
  timezone: after.timezone,
  alertSchedule: after.alertSchedule,
  judging: after.judging,
  conditions: after.conditions,
  action: after.action,
  // A change to a field the rule inherits from its template overrides it for this folder.
  ...(loaded.template
    ? {
        templateOverrides: overridesAfterEdit(
          loaded.template.values,
          valuesOfSnapshot(after),
          loaded.rule.templateOverrides,
        ),
      }
    : {}),
  // A person switching Notify only off gives the failing-rule switch a fresh count.
  ...(before.notifyOnly && !after.notifyOnly ? { failuresCountedFrom: sql`now()` } : {}),
  updatedAt: sql`now()`,
});

export function ruleEditsOf(writes: Database) {
  /**
   * One transaction on one connection (docs/decisions.md, "Server"): the rule read with
   * its folder and items, then the rule's row with its audit entry (and its held runs dismissed)
   * as one statement returning the row the answer shows; changed items in one more, and then read
   * again for the answer.
   */
  const update = (actor: AuditActor, id: number, patch: RulePatchBody): Promise<RuleDto> =>
    writes.transaction(async (tx) => {
      // Locked as read: a template edit committing meanwhile waits, or is read, never undone by this save.
      const loaded = await requireRule(tx, id, true);
      if (isTrashed(loaded)) throw inTrash();
      const before = snapshotOf(loaded);
      const { after, changedItems } = applyRulePatch(before, patch);
      const changesText = ruleChangesText(before, after);
      if (!changesText) return ruleDto(loaded);
      const logged = auditWith(tx, actor, {
        action: AUDIT_ACTIONS.ruleUpdated,
        changesText,
        folder: auditRefs(loaded).folder,
        rule: { id, name: after.name },
      });
      const stopped = !after.isActive || after.notifyOnly;
      const [rule] = await tx
        .with(logged, ...(stopped ? [heldRunsDismissed(tx, id, actor)] : []))
        .update(rules)
        .set(editedColumns(loaded, before, after))
        .where(eq(rules.id, id))
        .returning();
      if (!changedItems.length) return ruleDto({ ...loaded, rule: rule! });
      await saveItems(tx, id, changedItems);
      return ruleDto(await requireRule(tx, id));
    });

  /**
   * A rule that fails too often switches itself to notify only (../run/failingRule.ts), its failure
   * count starting afresh: the first caller wins, however many workers finish failed runs at once.
   * True for the caller that switched it.
   */
  async function switchToNotifyOnly(id: number): Promise<boolean> {
    const switched = await writes
      .update(rules)
      .set({ notifyOnly: true, failuresCountedFrom: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(rules.id, id), eq(rules.notifyOnly, false)))
      .returning({ id: rules.id });
    return switched.length > 0;
  }

  return { update, switchToNotifyOnly };
}
