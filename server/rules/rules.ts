/**
 * Rules: adding one to a folder, editing, duplicating, trashing, restoring (with its folder when
 * that is trashed) and deleting from the trash, each change audited. The rule routes are a line
 * or two over these.
 */
import { and, eq, sql } from 'drizzle-orm';
import { duplicateName, nextNewRuleName, type RuleDto } from '../../shared/rules';
import { auditWith, recordAudit, type AuditActor } from '../audit/log';
import type { Database } from '../db/client';
import { folders, rules } from '../db/schema/index';
import { badRequest, ValidationError } from '../http/errors';
import { readJudging } from '../../shared/judging';
import { AUDIT_ACTIONS, ruleChangesText, type RuleSnapshot } from './changes';
import { auditFolder } from './context';
import { applyRulePatch, type RulePatchBody } from './ruleUpdate';
import { findFolder, insertRule, requireRule, ruleDto, saveItems, touchRule, type LoadedRule } from './store';
import type { ConditionGroup } from '../../shared/ruleConditions';
import type { RuleAction } from '../../shared/ruleActions';
import { pairErrors, readStoredAction, readStoredConditions } from './ruleConditionFields';
import { conditionValuesText } from './conditionChanges';
import { overridesAfterEdit, type RuleValues, type TemplateField } from '../../shared/templates';
import { valuesOfSnapshot } from '../templates/values';
import { createLedgerStore } from '../run/ledger';

/** What a new rule may start with beside the defaults. */
export interface RuleStart {
  conditions?: ConditionGroup | null;
  action?: RuleAction | null;
}

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

const auditRefs = ({ rule, folder, account }: LoadedRule) => ({
  folder: auditFolder(folder, account),
  rule: { id: rule.id, name: rule.name },
});

const inTrash = () => badRequest('This rule is in the trash. Restore it before changing it.');
const isTrashed = ({ rule, folder }: LoadedRule) => rule.isDeleted || folder.isDeleted;

/**
 * A rule switched off or to notify-only no longer wants its held turn-offs: they are dismissed in
 * the same statement as the switch, so nobody approves what the rule's owner just stopped.
 */
const heldRunsDismissed = (tx: Database, ruleId: number, actor: AuditActor) =>
  tx.$with('held_runs_dismissed').as(createLedgerStore(tx).dismissHeldRuns(ruleId, actor.id));

/** `writes`: where a rule's save runs (its own lane on PostgreSQL, app.writeDb); `db` when absent. */
export function createRuleStore(db: Database, { writes = db }: { writes?: Database } = {}) {
  const ruleById = async (id: number): Promise<RuleDto> => ruleDto(await requireRule(db, id));

  /** The folder row's 'Add rule': a rule of the defaults in a live folder, with conditions and an action if given. */
  async function create(actor: AuditActor, folderId: number, start: RuleStart = {}): Promise<RuleDto> {
    const conditions = start.conditions ?? null;
    const action = start.action ?? null;
    const unpaired = pairErrors(conditions, action);
    if (unpaired) throw new ValidationError(unpaired);
    const found = await findFolder(db, folderId);
    if (!found || found.folder.isDeleted) throw new ValidationError({ folder: ['Folder not found'] });
    const rule = await db.transaction(async (tx) => {
      const names = await tx
        .select({ name: rules.name })
        .from(rules)
        .where(and(eq(rules.folderId, folderId), eq(rules.isDeleted, false)));
      const name = nextNewRuleName(names.map((r) => r.name));
      const created = await insertRule(tx, found.folder, found.account, { name, conditions, action });
      await recordAudit(tx, actor, {
        action: AUDIT_ACTIONS.ruleCreated,
        changesText: conditionValuesText({ conditions, action }),
        folder: auditFolder(found.folder, found.account),
        rule: { id: created.id, name: created.name },
      });
      return created;
    });
    return ruleById(rule.id);
  }

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
        .set({
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
        })
        .where(eq(rules.id, id))
        .returning();
      if (!changedItems.length) return ruleDto({ ...loaded, rule: rule! });
      await saveItems(tx, id, changedItems);
      return ruleDto(await requireRule(tx, id));
    });

  /** The copy starts switched off: two active copies would act twice on the same ads. */
  async function duplicate(actor: AuditActor, id: number): Promise<RuleDto> {
    const loaded = await requireRule(db, id);
    if (isTrashed(loaded)) throw inTrash();
    const { rule, folder, account, items } = loaded;
    const copy = await db.transaction(async (tx) => {
      const created = await insertRule(tx, folder, account, {
        name: duplicateName(rule.name),
        isActive: false,
        schedule: rule.schedule,
        timezone: rule.timezone,
        alertSchedule: rule.alertSchedule,
        judging: readJudging(rule.judging),
        conditions: readStoredConditions(rule.conditions).value,
        action: readStoredAction(rule.action).value,
        filters: items.rule_filter,
        tasks: items.rule_task,
      });
      await recordAudit(tx, actor, {
        action: AUDIT_ACTIONS.ruleDuplicated,
        changesText: `Copied from "${rule.name}" (rule ${rule.id})`,
        folder: auditRefs(loaded).folder,
        rule: { id: created.id, name: created.name },
      });
      return created;
    });
    return ruleById(copy.id);
  }

  async function moveToTrash(actor: AuditActor, id: number): Promise<RuleDto> {
    const loaded = await requireRule(db, id);
    if (!loaded.rule.isDeleted) {
      await db.transaction(async (tx) => {
        await touchRule(tx, id, { isDeleted: true, deletedAt: sql`now()` });
        await recordAudit(tx, actor, { action: AUDIT_ACTIONS.ruleTrashed, ...auditRefs(loaded) });
      });
    }
    return ruleById(id);
  }

  /** A rule cannot live in a trashed folder: taking it out brings the folder (only) back too. */
  async function restore(actor: AuditActor, id: number): Promise<RuleDto> {
    const loaded = await requireRule(db, id);
    if (isTrashed(loaded)) {
      await db.transaction(async (tx) => {
        const refs = auditRefs(loaded);
        if (loaded.folder.isDeleted) {
          await tx
            .update(folders)
            .set({ isDeleted: false, deletedAt: null, updatedAt: sql`now()` })
            .where(eq(folders.id, loaded.folder.id));
          await recordAudit(tx, actor, { action: AUDIT_ACTIONS.folderRestored, folder: refs.folder });
        }
        await touchRule(tx, id, { isDeleted: false, deletedAt: null });
        await recordAudit(tx, actor, { action: AUDIT_ACTIONS.ruleRestored, ...refs });
      });
    }
    return ruleById(id);
  }

  /** Only a rule in the trash can be deleted. */
  async function deleteRule(actor: AuditActor, id: number): Promise<void> {
    const loaded = await requireRule(db, id);
    if (!loaded.rule.isDeleted) throw badRequest('Move the rule to the trash before deleting it.');
    await db.transaction(async (tx) => {
      await tx.delete(rules).where(eq(rules.id, id));
      await recordAudit(tx, actor, { action: AUDIT_ACTIONS.ruleDeleted, ...auditRefs(loaded) });
    });
  }

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

  /*
   * A rule and its template (server/templates/store.ts calls these in its own transactions: on a
   * store built on that transaction).
   */

  /** The rule follows the template from now on, keeping the given fields as its own. */
  async function followTemplate(ruleId: number, templateId: number, overrides: TemplateField[]): Promise<void> {
    await db
      .update(rules)
      .set({ templateId, templateOverrides: overrides, updatedAt: sql`now()` })
      .where(eq(rules.id, ruleId));
  }

  /**
   * A rule just added for a template (insertRule) follows it, overriding nothing, and takes its
   * notify only, which insertRule does not set; its updated_at stays its creation's.
   */
  async function followTemplateFromStart(ruleId: number, templateId: number, notifyOnly: boolean): Promise<void> {
    await db.update(rules).set({ templateId, templateOverrides: [], notifyOnly }).where(eq(rules.id, ruleId));
  }

  /** The rule stops following its template and keeps its values. */
  async function leaveTemplate(ruleId: number): Promise<void> {
    await db
      .update(rules)
      .set({ templateId: null, templateOverrides: [], updatedAt: sql`now()` })
      .where(eq(rules.id, ruleId));
  }

  /** A template being deleted: its followers keep their values and become rules of their own. */
  async function releaseFollowersOf(templateId: number): Promise<void> {
    await db.update(rules).set({ templateId: null, templateOverrides: [] }).where(eq(rules.templateId, templateId));
  }

  /**
   * Writes a template's values over a rule's columns and items (`templateOverrides`: its overrides
   * afterwards, when they change). A rule switched off or to notify only by it no longer wants its
   * held turn-offs: the caller dismisses them (as update does above).
   */
  async function writeTemplateValues(
    ruleId: number,
    values: RuleValues,
    { templateOverrides }: { templateOverrides?: TemplateField[] } = {},
  ): Promise<void> {
    await db
      .update(rules)
      .set({
        name: values.name,
        isActive: values.is_active,
        notifyOnly: values.notify_only,
        schedule: values.rule_schedule.schedule,
        timezone: values.rule_schedule.timezone,
        alertSchedule: values.rule_alert_schedule.schedule,
        judging: values.judging,
        conditions: values.conditions,
        action: values.action,
        ...(templateOverrides ? { templateOverrides } : {}),
        updatedAt: sql`now()`,
      })
      .where(eq(rules.id, ruleId));
    await saveItems(db, ruleId, [...values.rule_filter, ...values.rule_task]);
  }

  return {
    ruleById,
    create,
    update,
    duplicate,
    moveToTrash,
    restore,
    deleteRule,
    switchToNotifyOnly,
    followTemplate,
    followTemplateFromStart,
    leaveTemplate,
    releaseFollowersOf,
    writeTemplateValues,
  };
}

export type RuleStore = ReturnType<typeof createRuleStore>;
