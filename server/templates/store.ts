/**
 * Templates and the rules that follow them: listing, reading with its followers and lookalikes,
 * creating, editing (every inheriting field of every follower in one transaction, one log entry
 * naming the folders), using in a folder, linking a lookalike, leaving, resetting an override and
 * deleting. The routes are a line or two over these.
 */
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import { recordAudit, type AuditActor } from '../audit/log';
import type { Database } from '../db/client';
import { ruleTemplates, rules } from '../db/schema/index';
import { ApiError, badRequest, notFound, ValidationError } from '../http/errors';
import { searchAny } from '../http/search';
import { AUDIT_ACTIONS, ruleChangesText } from '../rules/changes';
import { auditFolder } from '../rules/context';
import { pairErrors } from '../rules/ruleConditionFields';
import { applyRulePatch, type RulePatchBody } from '../rules/ruleUpdate';
import { createRuleStore } from '../rules/rules';
import { findFolder, insertRule, requireRule, ruleDto, type Db } from '../rules/store';
import { NEW_RULE_JUDGING } from '../../shared/judging';
import {
  defaultFilters,
  defaultTasks,
  itemLabel,
  validateRuleItems,
  type RuleDto,
  type RuleValues,
} from '../../shared/rules';
import { defaultAlertDay, defaultWeek } from '../../shared/schedule';
import {
  differingFields,
  inheritedValues,
  templateFieldLabel,
  withFieldFrom,
  type TemplateDto,
  type TemplateField,
  type TemplateListRow,
} from '../../shared/templates';
import { mayEditIn, readOnlyReason, requireEditable, requireFolderInScope, type EditScope } from './access';
import { followersOf, isLive, lookalikesOf, valuesOfRule, type Follower } from './followers';
import { snapshotOfValues, valuesOfSnapshot } from './values';
import { createLedgerStore } from '../run/ledger';

export const TEMPLATE_ACTIONS = {
  created: 'Template created',
  updated: 'Template updated',
  deleted: 'Template deleted',
} as const;

/** Who is looking: where they may edit rules, and whether they may edit rules at all. */
export interface Viewer {
  actor: AuditActor;
  scope: EditScope;
  canEditRules: boolean;
}

type TemplateRow = typeof ruleTemplates.$inferSelect;

const iso = (d: Date) => d.toISOString();

export function newTemplateValues(name: string): RuleValues {
  return {
    name,
    is_active: false,
    notify_only: false,
    rule_filter: defaultFilters(),
    rule_task: defaultTasks(),
    rule_schedule: { schedule: defaultWeek(), timezone: 'UTC' },
    rule_alert_schedule: { schedule: defaultAlertDay() },
    judging: NEW_RULE_JUDGING,
    conditions: null,
    action: null,
  };
}

/** The values with every catalogue item present in catalogue order (the catalogue may have grown since they were saved). */
function completeValues(values: RuleValues): RuleValues {
  const filters = defaultFilters().map((d) => values.rule_filter.find((f) => f.name === d.name) ?? d);
  const tasks = defaultTasks().map((d) => values.rule_task.find((t) => t.name === d.name) ?? d);
  return { ...values, rule_filter: filters, rule_task: tasks };
}

/** The first reason the values are not a valid rule, in words, or null. */
function invalidReason(values: RuleValues): string | null {
  const errors = {
    ...validateRuleItems(values.rule_filter, values.rule_task, {
      active: values.is_active,
      acts: !!(values.conditions && values.action),
    }),
    ...pairErrors(values.conditions, values.action),
  };
  const found: string[] = [];
  const walk = (node: unknown, label: string) => {
    if (Array.isArray(node)) found.push(`${label}: ${node.join(' ')}`);
    else if (node && typeof node === 'object')
      for (const [key, child] of Object.entries(node))
        walk(child, key === 'non_field_errors' ? label : itemLabel(key) === key ? label || key : itemLabel(key));
  };
  walk(errors, '');
  return found.length ? found.join('; ').replace(/^: /, '') : null;
}

/** A follower's values under the template's, and what moves. */
export interface FollowerPlan {
  follower: Follower;
  current: RuleValues;
  next: RuleValues;
  changes: TemplateField[];
}

export async function planFollowers(db: Db, template: RuleValues, followers: Follower[]): Promise<FollowerPlan[]> {
  const plans: FollowerPlan[] = [];
  for (const follower of followers) {
    const { values: current } = await valuesOfRule(db, follower.ruleId);
    const next = inheritedValues(template, current, follower.overrides);
    plans.push({ follower, current, next, changes: differingFields(current, next) });
  }
  return plans;
}

const followerText = (plan: FollowerPlan) =>
  plan.follower.overrides.length
    ? `${plan.follower.folderName} (keeps its own ${plan.follower.overrides.map(templateFieldLabel).join(', ')})`
    : plan.follower.folderName;

/** `writes`: where changes run (their own lane on PostgreSQL, app.writeDb); `db` when absent. */
export function createTemplateStore(db: Database, { writes = db }: { writes?: Database } = {}) {
  async function requireTemplate(tx: Db, id: number, forUpdate = false): Promise<TemplateRow> {
    const query = tx.select().from(ruleTemplates).where(eq(ruleTemplates.id, id));
    const [row] = forUpdate ? await query.for('update') : await query;
    if (!row) throw notFound();
    return { ...row, values: completeValues(row.values) };
  }

  async function list(options: { limit: number; offset: number; search?: string; ordering?: string }) {
    const followers = db
      .select({
        templateId: rules.templateId,
        folders: sql<number>`count(*)::int`.as('folders'),
        overriding: sql<number>`count(*) filter (where jsonb_array_length(${rules.templateOverrides}) > 0)::int`.as(
          'overriding',
        ),
      })
      .from(rules)
      .where(and(eq(rules.isDeleted, false), sql`${rules.templateId} is not null`))
      .groupBy(rules.templateId)
      .as('followers');
    const where = searchAny(options.search, [ruleTemplates.name]);
    const descending = options.ordering?.startsWith('-');
    const key = options.ordering?.replace(/^-/, '');
    const order =
      key === 'updated_at'
        ? [descending ? desc(ruleTemplates.updatedAt) : asc(ruleTemplates.updatedAt), asc(ruleTemplates.id)]
        : key === 'folders'
          ? [
              descending ? sql`coalesce(${followers.folders}, 0) desc` : sql`coalesce(${followers.folders}, 0)`,
              asc(ruleTemplates.id),
            ]
          : [descending ? desc(ruleTemplates.name) : asc(ruleTemplates.name), asc(ruleTemplates.id)];
    const [rows, [total]] = await Promise.all([
      db
        .select({
          id: ruleTemplates.id,
          name: ruleTemplates.name,
          updatedAt: ruleTemplates.updatedAt,
          folders: followers.folders,
          overriding: followers.overriding,
        })
        .from(ruleTemplates)
        .leftJoin(followers, eq(followers.templateId, ruleTemplates.id))
        .where(where)
        .orderBy(...order)
        .limit(options.limit)
        .offset(options.offset),
      db.select({ n: count() }).from(ruleTemplates).where(where),
    ]);
    const results: TemplateListRow[] = rows.map((r) => ({
      id: r.id,
      name: r.name,
      folders: r.folders ?? 0,
      overriding_folders: r.overriding ?? 0,
      updated_at: iso(r.updatedAt),
    }));
    return { count: total?.n ?? 0, results };
  }

  async function find(id: number, viewer: Omit<Viewer, 'actor'>): Promise<TemplateDto> {
    const template = await requireTemplate(db, id);
    const followers = (await followersOf(db, id)).filter(isLive);
    const lookalikes = await lookalikesOf(db, template.values);
    const reason = readOnlyReason(viewer.scope, viewer.canEditRules, followers);
    return {
      id: template.id,
      name: template.name,
      values: template.values,
      folders: followers.map((f) => ({
        folder: { id: f.folderId, name: f.folderName },
        account_name: f.accountName,
        rule: { id: f.ruleId, name: f.ruleName, is_active: f.isActive },
        overrides: f.overrides,
        editable: viewer.canEditRules && mayEditIn(viewer.scope, f.folderId),
      })),
      lookalikes: lookalikes.map(({ loaded, values }) => ({
        folder: { id: loaded.folder.id, name: loaded.folder.name },
        rule: { id: loaded.rule.id, name: loaded.rule.name },
        differs: differingFields(template.values, values),
        editable: viewer.canEditRules && mayEditIn(viewer.scope, loaded.folder.id),
      })),
      can_edit: reason === null,
      read_only_reason: reason,
      created_at: iso(template.createdAt),
      updated_at: iso(template.updatedAt),
    };
  }

  /** A new template of the defaults, or of a rule's values (the rule then follows it, overriding nothing). */
  async function create(viewer: Viewer, body: { name?: string; rule?: number }): Promise<TemplateDto> {
    if (!viewer.canEditRules) throw new ApiError(403, { detail: 'You may read rules but not edit them.' });
    const id = await writes.transaction(async (tx) => {
      const source = body.rule ? await valuesOfRule(tx, body.rule).catch(() => null) : null;
      if (body.rule && !source) throw new ValidationError({ rule: ['Rule not found'] });
      if (source) requireFolderInScope(viewer.scope, source.loaded.folder.id, source.loaded.folder.name);
      if (source?.loaded.rule.templateId) throw new ValidationError({ rule: ['This rule already follows a template'] });
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

  /** The template with the edit applied, and what it does to each follower; nothing written. */
  async function planEdit(tx: Db, id: number, patch: RulePatchBody, forUpdate: boolean) {
    const template = await requireTemplate(tx, id, forUpdate);
    const followers = await followersOf(tx, id, forUpdate);
    const before = template.values;
    const afterSnapshot = applyRulePatch(snapshotOfValues(before), patch).after;
    const after = completeValues(valuesOfSnapshot(afterSnapshot));
    const plans = await planFollowers(tx, after, followers);
    return {
      template,
      followers,
      before,
      after,
      plans,
      text: ruleChangesText(snapshotOfValues(before), afterSnapshot),
    };
  }

  /**
   * One transaction: the template, then every follower's inheriting fields, then one log entry that
   * names the folders. A follower the edit would leave invalid (active with no task on, say) stops
   * the whole edit with its folder named: nothing is half-applied.
   */
  async function update(viewer: Viewer, id: number, patch: RulePatchBody): Promise<TemplateDto> {
    await writes.transaction(async (tx) => {
      const { template, followers, after, plans, text } = await planEdit(tx, id, patch, true);
      requireEditable(viewer.scope, viewer.canEditRules, followers);
      if (!text) return;
      for (const plan of plans) {
        const reason = invalidReason(plan.next);
        if (reason)
          throw badRequest(
            `The rule "${plan.follower.ruleName}" in ${plan.follower.folderName} would not be valid after this edit (${reason}). Change the template or that folder's overrides first.`,
          );
      }
      await tx
        .update(ruleTemplates)
        .set({ name: after.name, values: after, updatedAt: sql`now()` })
        .where(eq(ruleTemplates.id, id));
      const moved = plans.filter((p) => p.changes.length);
      const ruleStore = createRuleStore(tx);
      for (const plan of moved) {
        await ruleStore.writeTemplateValues(plan.follower.ruleId, plan.next);
        if (!plan.next.is_active || plan.next.notify_only)
          await createLedgerStore(tx).dismissHeldRuns(plan.follower.ruleId, viewer.actor.id);
      }
      const live = plans.filter((p) => isLive(p.follower));
      const foldersText = live.length ? `Folders: ${live.map(followerText).join(', ')}` : 'No folder follows it';
      await recordAudit(tx, viewer.actor, {
        action: TEMPLATE_ACTIONS.updated,
        changesText: `Template "${template.name}": ${text}; ${foldersText}`,
      });
    });
    return find(id, viewer);
  }

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
      const values = template.values;
      const created = await insertRule(tx, found.folder, found.account, {
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
      await createRuleStore(tx).followTemplateFromStart(created.id, id, values.notify_only);
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

  return { list, find, create, update, planEdit, use, link, leave, resetOverride, remove, requireTemplate };
}

export type TemplateStore = ReturnType<typeof createTemplateStore>;
