/**
 * Creating a template (of the defaults, or of a rule that then follows it), editing it (every
 * inheriting field of every follower in one transaction, one log entry naming the folders) and
 * deleting it (its followers keep their values).
 */
import { eq, sql } from 'drizzle-orm';
import { recordAudit, type AuditActor } from '../audit/log';
import type { Database } from '../db/client';
import { ruleTemplates } from '../db/schema/index';
import { ApiError, badRequest, ValidationError } from '../http/errors';
import { auditFolder } from '../rules/context';
import type { RulePatchBody } from '../rules/ruleUpdate';
import { createRuleStore } from '../rules/rules';
import type { Db } from '../rules/store';
import { createLedgerStore } from '../run/ledger';
import { differingFields, templateFieldLabel, type TemplateDto } from '../../shared/templates';
import { requireEditable, requireFolderInScope } from './access';
import { planEdit, type FollowerPlan } from './editPlans';
import { followersOf, isLive, valuesOfRule } from './followers';
import { invalidReason } from './ruleValidity';
import { templateReadsOf, type Viewer } from './templateReads';
import { newTemplateValues, requireTemplate } from './templateRows';

export const TEMPLATE_ACTIONS = {
  created: 'Template created',
  updated: 'Template updated',
  deleted: 'Template deleted',
} as const;

const followerText = (plan: FollowerPlan) =>
  plan.follower.overrides.length
    ? `${plan.follower.folderName} (keeps its own ${plan.follower.overrides.map(templateFieldLabel).join(', ')})`
    : plan.follower.folderName;

/** A follower the edit would leave invalid (active with no task on, say) stops the whole edit, its folder named. */
function requireValidFollowers(plans: FollowerPlan[]): void {
  for (const plan of plans) {
    const reason = invalidReason(plan.next);
    if (reason)
      throw badRequest(
        `The rule "${plan.follower.ruleName}" in ${plan.follower.folderName} would not be valid after this edit (${reason}). Change the template or that folder's overrides first.`,
      );
  }
}

/** Each follower the edit moves takes its new values; one it switches off or to notify only loses its held runs. */
async function moveFollowers(tx: Database, plans: FollowerPlan[], actor: AuditActor): Promise<void> {
  const ruleStore = createRuleStore(tx);
  for (const plan of plans.filter((p) => p.changes.length)) {
    await ruleStore.writeTemplateValues(plan.follower.ruleId, plan.next);
    if (!plan.next.is_active || plan.next.notify_only)
      await createLedgerStore(tx).dismissHeldRuns(plan.follower.ruleId, actor.id);
  }
}

/** The rule a new template is made of, when one is named: in the person's folders, following no template. */
async function sourceRule(tx: Db, viewer: Viewer, ruleId: number | undefined) {
  const source = ruleId ? await valuesOfRule(tx, ruleId).catch(() => null) : null;
  if (ruleId && !source) throw new ValidationError({ rule: ['Rule not found'] });
  if (source) requireFolderInScope(viewer.scope, source.loaded.folder.id, source.loaded.folder.name);
  if (source?.loaded.rule.templateId) throw new ValidationError({ rule: ['This rule already follows a template'] });
  return source;
}

export function templateWritesOf(db: Database, writes: Database) {
  const { find } = templateReadsOf(db);

  /** A new template of the defaults, or of a rule's values (the rule then follows it, overriding nothing). */
  async function create(viewer: Viewer, body: { name?: string; rule?: number }): Promise<TemplateDto> {
    if (!viewer.canEditRules) throw new ApiError(403, { detail: 'You may read rules but not edit them.' });
    const id = await writes.transaction(async (tx) => {
      const source = await sourceRule(tx, viewer, body.rule);
      const name = body.name?.trim() || source?.values.name;
      if (!name) throw new ValidationError({ name: ['This field is required.'] });
      const values = { ...(source?.values ?? newTemplateValues(name)), name };
      const [row] = await tx.insert(ruleTemplates).values({ name, values }).returning({ id: ruleTemplates.id });
      if (source) {
        // The rule keeps its own name when the template is given another.
        await createRuleStore(tx).followTemplate(
          source.loaded.rule.id,
          row!.id,
          differingFields(values, source.values),
        );
      }
      await recordAudit(tx, viewer.actor, {
        action: TEMPLATE_ACTIONS.created,
        changesText: source
          ? `Template "${name}" from rule "${source.loaded.rule.name}" in ${source.loaded.folder.name}, which follows it`
          : `Template "${name}"`,
        folder: source ? auditFolder(source.loaded.folder, source.loaded.account) : null,
        rule: source ? { id: source.loaded.rule.id, name: source.loaded.rule.name } : null,
      });
      return row!.id;
    });
    return find(id, viewer);
  }

  /**
   * One transaction: the template, then every follower's inheriting fields, then one log entry that
   * names the folders. A follower the edit would leave invalid stops the whole edit: nothing is
   * half-applied.
   */
  async function update(viewer: Viewer, id: number, patch: RulePatchBody): Promise<TemplateDto> {
    await writes.transaction(async (tx) => {
      const { template, followers, after, plans, text } = await planEdit(tx, id, patch, true);
      requireEditable(viewer.scope, viewer.canEditRules, followers);
      if (!text) return;
      requireValidFollowers(plans);
      await tx
        .update(ruleTemplates)
        .set({ name: after.name, values: after, updatedAt: sql`now()` })
        .where(eq(ruleTemplates.id, id));
      await moveFollowers(tx, plans, viewer.actor);
      const live = plans.filter((p) => isLive(p.follower));
      const foldersText = live.length ? `Folders: ${live.map(followerText).join(', ')}` : 'No folder follows it';
      await recordAudit(tx, viewer.actor, {
        action: TEMPLATE_ACTIONS.updated,
        changesText: `Template "${template.name}": ${text}; ${foldersText}`,
      });
    });
    return find(id, viewer);
  }

  /** Its followers keep their values and become rules of their own. */
  async function remove(viewer: Viewer, id: number): Promise<void> {
    await writes.transaction(async (tx) => {
      const template = await requireTemplate(tx, id, true);
      const followers = await followersOf(tx, id, true);
      requireEditable(viewer.scope, viewer.canEditRules, followers);
      await createRuleStore(tx).releaseFollowersOf(id);
      await tx.delete(ruleTemplates).where(eq(ruleTemplates.id, id));
      const live = followers.filter(isLive);
      await recordAudit(tx, viewer.actor, {
        action: TEMPLATE_ACTIONS.deleted,
        changesText: `Template "${template.name}"${
          live.length ? `; its folders keep their rules: ${live.map((f) => f.folderName).join(', ')}` : ''
        }`,
      });
    });
  }

  return { create, update, remove };
}
