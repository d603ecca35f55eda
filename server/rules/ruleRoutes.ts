/**
 * Rules: `GET/PATCH /api/rule/{id}/`, `POST /api/rule/` (the folder row's 'Add rule'),
 * `GET /api/rule/get_timezones/`, and `POST /api/rules/{id}/duplicate_rule/`, `/move_to_trash/`,
 * `/restore/`, `DELETE /api/rules/{id}/` (only from the trash).
 */
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { recordAudit } from '../audit/log';
import { requirePermission } from '../auth/plugin';
import { folders, rules } from '../db/schema/index';
import { badRequest, ValidationError } from '../http/errors';
import { pathId } from '../http/params';
import { parseBody } from '../http/validation';
import { NEW_RULE_NAME, duplicateName } from '../../src/domain/rules';
import { MESSAGES } from '../../src/domain/validation';
import { AUDIT_ACTIONS, ruleChangesText, type RuleSnapshot } from './changes';
import { auditActor, auditFolder, type RulesRouteOptions } from './context';
import { applyRulePatch } from './ruleUpdate';
import { findFolder, insertRule, requireRule, ruleDto, saveItems, touchRule, type LoadedRule } from './store';
import { timezoneOptions, type TimezoneOption } from './timezones';

const createRuleSchema = z.object({
  folder: z.coerce.number({ error: MESSAGES.required }).int(MESSAGES.required).positive(MESSAGES.required),
});

const snapshotOf = ({ rule, items }: LoadedRule): RuleSnapshot => ({
  name: rule.name,
  isActive: rule.isActive,
  notifyOnly: rule.notifyOnly,
  schedule: rule.schedule,
  timezone: rule.timezone,
  alertSchedule: rule.alertSchedule,
  filters: items.rule_filter,
  tasks: items.rule_task,
});

const auditRefs = ({ rule, folder, account }: LoadedRule) => ({
  folder: auditFolder(folder, account),
  rule: { id: rule.id, name: rule.name },
});

const inTrash = () => badRequest('This rule is in the trash. Restore it before changing it.');

export default async function ruleRoutes(app: FastifyInstance, _options: RulesRouteOptions) {
  const readRules = requirePermission('read_rules');
  const changeRules = requirePermission('create_update_rules');
  const useTrash = requirePermission('delete_rules');

  const current = async (id: number) => ruleDto(await requireRule(app.db, id));

  let zones: { at: number; options: TimezoneOption[] } | null = null;
  app.get('/rule/get_timezones/', { preHandler: readRules }, async () => {
    // Offsets move with daylight saving time; an hour-old list is close enough.
    if (!zones || Date.now() - zones.at > 3_600_000) zones = { at: Date.now(), options: timezoneOptions() };
    return zones.options;
  });

  app.post('/rule/', { preHandler: changeRules }, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const { folder: folderId } = parseBody(createRuleSchema, { folder: body.folder ?? body.folder_id });
    const found = await findFolder(app.db, folderId);
    if (!found || found.folder.isDeleted) throw new ValidationError({ folder: ['Folder not found'] });
    const rule = await app.db.transaction(async (tx) => {
      const created = await insertRule(tx, found.folder, found.account, { name: NEW_RULE_NAME });
      await recordAudit(tx, auditActor(request), {
        action: AUDIT_ACTIONS.ruleCreated,
        folder: auditFolder(found.folder, found.account),
        rule: { id: created.id, name: created.name },
      });
      return created;
    });
    reply.status(201);
    return current(rule.id);
  });

  app.get('/rule/:id/', { preHandler: readRules }, async (request) => current(pathId(request)));

  app.patch('/rule/:id/', { preHandler: changeRules }, async (request) => {
    const id = pathId(request);
    const loaded = await requireRule(app.db, id);
    if (loaded.rule.isDeleted || loaded.folder.isDeleted) throw inTrash();
    const before = snapshotOf(loaded);
    const { after, changedItems } = applyRulePatch(before, request.body);
    const changesText = ruleChangesText(before, after);
    if (changesText) {
      await app.db.transaction(async (tx) => {
        await touchRule(tx, id, {
          name: after.name,
          isActive: after.isActive,
          notifyOnly: after.notifyOnly,
          schedule: after.schedule,
          timezone: after.timezone,
          alertSchedule: after.alertSchedule,
        });
        await saveItems(tx, id, changedItems);
        const refs = auditRefs(loaded);
        await recordAudit(tx, auditActor(request), {
          action: AUDIT_ACTIONS.ruleUpdated,
          changesText,
          folder: refs.folder,
          rule: { id, name: after.name },
        });
      });
    }
    return current(id);
  });

  app.post('/rules/:id/duplicate_rule/', { preHandler: changeRules }, async (request, reply) => {
    const loaded = await requireRule(app.db, pathId(request));
    if (loaded.rule.isDeleted || loaded.folder.isDeleted) throw inTrash();
    const { rule, folder, account, items } = loaded;
    const copy = await app.db.transaction(async (tx) => {
      // The copy starts switched off: two active copies would act twice on the same ads.
      const created = await insertRule(tx, folder, account, {
        name: duplicateName(rule.name),
        isActive: false,
        schedule: rule.schedule,
        timezone: rule.timezone,
        alertSchedule: rule.alertSchedule,
        filters: items.rule_filter,
        tasks: items.rule_task,
      });
      await recordAudit(tx, auditActor(request), {
        action: AUDIT_ACTIONS.ruleDuplicated,
        changesText: `Copied from "${rule.name}" (rule ${rule.id})`,
        folder: auditRefs(loaded).folder,
        rule: { id: created.id, name: created.name },
      });
      return created;
    });
    reply.status(201);
    return current(copy.id);
  });

  app.post('/rules/:id/move_to_trash/', { preHandler: changeRules }, async (request) => {
    const id = pathId(request);
    const loaded = await requireRule(app.db, id);
    if (!loaded.rule.isDeleted) {
      await app.db.transaction(async (tx) => {
        await touchRule(tx, id, { isDeleted: true, deletedAt: sql`now()` });
        await recordAudit(tx, auditActor(request), { action: AUDIT_ACTIONS.ruleTrashed, ...auditRefs(loaded) });
      });
    }
    return current(id);
  });

  app.post('/rules/:id/restore/', { preHandler: useTrash }, async (request) => {
    const id = pathId(request);
    const loaded = await requireRule(app.db, id);
    if (loaded.rule.isDeleted || loaded.folder.isDeleted) {
      await app.db.transaction(async (tx) => {
        const actor = auditActor(request);
        const refs = auditRefs(loaded);
        // A rule cannot live in a trashed folder: taking it out brings the folder (only) back too.
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
    return current(id);
  });

  app.delete('/rules/:id/', { preHandler: useTrash }, async (request, reply) => {
    const id = pathId(request);
    const loaded = await requireRule(app.db, id);
    if (!loaded.rule.isDeleted) throw badRequest('Move the rule to the trash before deleting it.');
    await app.db.transaction(async (tx) => {
      await tx.delete(rules).where(eq(rules.id, id));
      await recordAudit(tx, auditActor(request), { action: AUDIT_ACTIONS.ruleDeleted, ...auditRefs(loaded) });
    });
    return reply.status(204).send();
  });
}
