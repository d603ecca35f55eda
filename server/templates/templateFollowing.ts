/**
 * A folder's rule and a template: a new rule in a folder following it, a lookalike rule linked to
 * it, a rule leaving it, and an overridden field reset to the template's value.
 */
import { recordAudit } from '../audit/log';
import type { Database } from '../db/client';
import { ApiError, badRequest, notFound, ValidationError } from '../http/errors';
import { AUDIT_ACTIONS, ruleChangesText } from '../rules/changes';
import { auditFolder } from '../rules/context';
import { createRuleStore } from '../rules/rules';
import { findFolder, insertRule, requireRule, ruleDto, type NewRule } from '../rules/store';
import type { RuleDto, RuleValues } from '../../shared/rules';
import { differingFields, templateFieldLabel, withFieldFrom, type TemplateField } from '../../shared/templates';
import { requireFolderInScope } from './access';
import { followersOf, isLive, valuesOfRule } from './followers';
import { invalidReason } from './ruleValidity';
import type { Viewer } from './templateReads';
import { completeValues, requireTemplate } from './templateRows';
import { snapshotOfValues } from './values';

/** A new rule of the template's values (insertRule leaves notify only to the caller). */
const newRuleOf = (values: RuleValues): NewRule => ({
  name: values.name,
  isActive: values.is_active,
  schedule: values.rule_schedule.schedule,
  timezone: values.rule_schedule.timezone,
  alertSchedule: values.rule_alert_schedule.schedule,
  judging: values.judging,
  conditions: values.conditions,
  action: values.action,
  filters: values.rule_filter,
  tasks: values.rule_task,
});

/** A rule comes to follow the template: a new one in a folder, or a lookalike linked to it. */
export function newFollowersOf(db: Database, writes: Database) {
  /** A rule in the folder that follows the template, overriding nothing. */
  async function use(viewer: Viewer, id: number, folderId: number): Promise<RuleDto> {
    const ruleId = await writes.transaction(async (tx) => {
      const template = await requireTemplate(tx, id, true);
      const found = await findFolder(tx, folderId);
      if (!found || found.folder.isDeleted) throw new ValidationError({ folder: ['Folder not found'] });
      if (!viewer.canEditRules) throw new ApiError(403, { detail: 'You may read rules but not edit them.' });
      requireFolderInScope(viewer.scope, folderId, found.folder.name);
      const already = (await followersOf(tx, id)).find((f) => f.folderId === folderId && isLive(f));
      if (already)
        throw new ValidationError({
          folder: [`${found.folder.name} already follows this template (rule "${already.ruleName}")`],
        });
      const reason = invalidReason(template.values);
      if (reason) throw badRequest(`The template is not a valid rule yet (${reason}).`);
      const created = await insertRule(tx, found.folder, found.account, newRuleOf(template.values));
      await createRuleStore(tx).followTemplateFromStart(created.id, id, template.values.notify_only);
      await recordAudit(tx, viewer.actor, {
        action: AUDIT_ACTIONS.ruleCreated,
        changesText: `Follows template "${template.name}"`,
        folder: auditFolder(found.folder, found.account),
        rule: { id: created.id, name: created.name },
      });
      return created.id;
    });
    return ruleDto(await requireRule(db, ruleId));
  }

  /** A rule that looks like the template follows it, keeping every value it has as an override. */
  async function link(viewer: Viewer, id: number, ruleId: number): Promise<RuleDto> {
    await writes.transaction(async (tx) => {
      const template = await requireTemplate(tx, id, true);
      const source = await valuesOfRule(tx, ruleId).catch(() => null);
      if (!source || source.loaded.rule.isDeleted || source.loaded.folder.isDeleted)
        throw new ValidationError({ rule: ['Rule not found'] });
      const { loaded, values } = source;
      if (!viewer.canEditRules) throw new ApiError(403, { detail: 'You may read rules but not edit them.' });
      requireFolderInScope(viewer.scope, loaded.folder.id, loaded.folder.name);
      if (loaded.rule.templateId)
        throw new ValidationError({ rule: ['This rule already follows a template: leave it first'] });
      const overrides = differingFields(template.values, values);
      await createRuleStore(tx).followTemplate(ruleId, id, overrides);
      await recordAudit(tx, viewer.actor, {
        action: AUDIT_ACTIONS.ruleUpdated,
        changesText: `Follows template "${template.name}"${
          overrides.length ? `, keeps its own ${overrides.map(templateFieldLabel).join(', ')}` : ''
        }`,
        folder: auditFolder(loaded.folder, loaded.account),
        rule: { id: ruleId, name: loaded.rule.name },
      });
    });
    return ruleDto(await requireRule(db, ruleId));
  }

  return { use, link };
}

/** A following rule leaves its template, or takes an overridden field from it again. */
export function followerChangesOf(db: Database, writes: Database) {
  /** The folder's rule stops following its template and keeps the values it has. */
  async function leave(viewer: Viewer, ruleId: number): Promise<RuleDto> {
    await writes.transaction(async (tx) => {
      const loaded = await requireRule(tx, ruleId);
      if (!loaded.template) throw badRequest('This rule follows no template.');
      requireFolderInScope(viewer.scope, loaded.folder.id, loaded.folder.name);
      await createRuleStore(tx).leaveTemplate(ruleId);
      await recordAudit(tx, viewer.actor, {
        action: AUDIT_ACTIONS.ruleUpdated,
        changesText: `Left template "${loaded.template.name}", keeps its values`,
        folder: auditFolder(loaded.folder, loaded.account),
        rule: { id: ruleId, name: loaded.rule.name },
      });
    });
    return ruleDto(await requireRule(db, ruleId));
  }

  /** An overridden field takes the template's value again and follows it from now on. */
  async function resetOverride(viewer: Viewer, ruleId: number, field: TemplateField): Promise<RuleDto> {
    await writes.transaction(async (tx) => {
      const { loaded, values } = await valuesOfRule(tx, ruleId).catch(() => {
        throw notFound();
      });
      if (!loaded.template) throw badRequest('This rule follows no template.');
      if (loaded.rule.isDeleted || loaded.folder.isDeleted)
        throw badRequest('This rule is in the trash. Restore it before changing it.');
      requireFolderInScope(viewer.scope, loaded.folder.id, loaded.folder.name);
      const template = completeValues(loaded.template.values);
      const next = withFieldFrom(values, template, field);
      const reason = invalidReason(next);
      if (reason) throw new ValidationError({ field: [`Resetting it would leave the rule invalid: ${reason}`] });
      await createRuleStore(tx).writeTemplateValues(ruleId, next, {
        templateOverrides: loaded.rule.templateOverrides.filter((f) => f !== field),
      });
      const text = ruleChangesText(snapshotOfValues(values), snapshotOfValues(next));
      await recordAudit(tx, viewer.actor, {
        action: AUDIT_ACTIONS.ruleUpdated,
        changesText: [`Reset to template "${loaded.template.name}": ${templateFieldLabel(field)}`, text]
          .filter(Boolean)
          .join('; '),
        folder: auditFolder(loaded.folder, loaded.account),
        rule: { id: ruleId, name: next.name },
      });
    });
    return ruleDto(await requireRule(db, ruleId));
  }

  return { leave, resetOverride };
}
