/**
 * A rule's life in its folder: added (the folder row's 'Add rule'), duplicated, moved to the trash,
 * restored (with its folder when that is trashed) and deleted from the trash, each change audited.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { RuleAction } from '../../shared/ruleActions';
import type { ConditionGroup } from '../../shared/ruleConditions';
import { duplicateName, nextNewRuleName, type RuleDto } from '../../shared/rules';
import { recordAudit, type AuditActor } from '../audit/log';
import type { Database } from '../db/client';
import { folders, rules } from '../db/schema/index';
import { badRequest, ValidationError } from '../http/errors';
import { AUDIT_ACTIONS } from './changes';
import { conditionValuesText } from './conditionChanges';
import { auditFolder } from './context';
import { auditRefs, inTrash, isTrashed, snapshotOf } from './loadedRules';
import { pairErrors } from './ruleConditionFields';
import { findFolder, insertRule, requireRule, ruleDto, touchRule } from './store';

/** What a new rule may start with beside the defaults. */
export interface RuleStart {
  conditions?: ConditionGroup | null;
  action?: RuleAction | null;
}

/** The rule as the answer shows it. */
const ruleAnswer = async (db: Database, id: number): Promise<RuleDto> => ruleDto(await requireRule(db, id));

/** Rules added to a folder: a new one of the defaults, or a copy. */
export function newRulesOf(db: Database) {
  const ruleById = (id: number) => ruleAnswer(db, id);

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

  /** The copy starts switched off: two active copies would act twice on the same ads. */
  async function duplicate(actor: AuditActor, id: number): Promise<RuleDto> {
    const loaded = await requireRule(db, id);
    if (isTrashed(loaded)) throw inTrash();
    const { rule, folder, account } = loaded;
    // Notify only is not copied: insertRule leaves it to the caller, and a copy starts plain.
    const { notifyOnly: _notifyOnly, ...values } = snapshotOf(loaded);
    const copy = await db.transaction(async (tx) => {
      const created = await insertRule(tx, folder, account, {
        ...values,
        name: duplicateName(rule.name),
        isActive: false,
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

  return { ruleById, create, duplicate };
}

/** A rule into the trash, out of it again, and deleted from it. */
export function ruleTrashingOf(db: Database) {
  const ruleById = (id: number) => ruleAnswer(db, id);

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

  return { moveToTrash, restore, deleteRule };
}
