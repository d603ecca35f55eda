/**
 * The rule engine's API: the rule log (SPEC §7), Run now, Preview, Undo and exemptions.
 * Paths are in docs/api.md.
 */
import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { actorOf, requirePermission } from '../auth/plugin';
import { folders, metaAdAccounts, ruleActivity, ruleExemptions, rules } from '../db/schema/index';
import { ApiError, notFound } from '../http/errors';
import { commaList, idList, orderingWithId, paginate, pageRequest } from '../http/pagination';
import type { ActivityRow } from './activity';
import { searchAny } from '../http/search';
import { pathId } from '../http/params';
import type { RuleLogEntryDto } from '../../src/domain/contracts';

export type { RuleLogEntryDto };

const ORDERING = {
  created_at: ruleActivity.createdAt,
  action: ruleActivity.action,
  ad_id: ruleActivity.adId,
  client_account: folders.name,
  folder_name: folders.name,
  rule: rules.name,
  rule_name: rules.name,
  id: ruleActivity.id,
};

export default async function ruleEngineRoutes(app: FastifyInstance) {
  const engine = () => app.ruleEngine;

  async function requireLiveRule(ruleId: number) {
    const [row] = await app.db
      .select({ id: rules.id })
      .from(rules)
      .where(and(eq(rules.id, ruleId), eq(rules.isDeleted, false)));
    if (!row) throw notFound();
  }

  const folderOfEntry = sql`coalesce(${rules.folderId}, ${ruleActivity.folderId})`;

  async function entries(where: SQL | undefined, ordering: SQL[], paging?: { limit: number; offset: number }) {
    const query = app.db
      .select({
        entry: ruleActivity,
        rule: rules,
        folder: folders,
        account: metaAdAccounts,
        exemptSince: ruleExemptions.createdAt,
      })
      .from(ruleActivity)
      .leftJoin(rules, eq(rules.id, ruleActivity.ruleId))
      .leftJoin(folders, eq(folders.id, folderOfEntry))
      .leftJoin(metaAdAccounts, eq(metaAdAccounts.adAccountId, folders.adAccountId))
      .leftJoin(
        ruleExemptions,
        and(eq(ruleExemptions.ruleId, ruleActivity.ruleId), eq(ruleExemptions.objectId, ruleActivity.adId)),
      )
      .where(where)
      .orderBy(...ordering);
    const rows = paging ? await query.limit(paging.limit).offset(paging.offset) : await query;
    return rows.map(({ entry, rule, folder, account, exemptSince }) =>
      toDto(entry, rule, folder, account, exemptSince !== null),
    );
  }

  function toDto(
    entry: ActivityRow,
    rule: typeof rules.$inferSelect | null,
    folder: typeof folders.$inferSelect | null,
    account: typeof metaAdAccounts.$inferSelect | null,
    exempt: boolean,
  ): RuleLogEntryDto {
    return {
      id: entry.id,
      created_at: new Date(entry.createdAt).toISOString(),
      action: entry.action,
      ad_id: entry.adId,
      object_type: entry.objectType,
      reason: entry.reason ?? {},
      undone_at: entry.undoneAt ? new Date(entry.undoneAt).toISOString() : null,
      exempt,
      rule:
        rule && folder
          ? {
              id: rule.id,
              name: rule.name,
              folder: {
                id: folder.id,
                name: folder.name,
                meta_ad_account: { account_name: account?.accountName ?? folder.adAccountId },
              },
            }
          : null,
    };
  }

  const byIds = (ids: number[]) => entries(inArray(ruleActivity.id, ids.length ? ids : [-1]), [asc(ruleActivity.id)]);

  app.get('/rule_log/', { preHandler: requirePermission('view_logs') }, async (request) => {
    const query = request.query as Record<string, unknown>;
    const paging = pageRequest(query, 10, 100);
    const conditions: SQL[] = [eq(ruleActivity.state, 'done')];
    const search = searchAny(query.search, [
      ruleActivity.adId,
      ruleActivity.action,
      rules.name,
      folders.name,
      metaAdAccounts.accountName,
      sql`${ruleActivity.reason}::text`,
    ]);
    if (search) conditions.push(search);
    if (query.rule_id_in !== undefined)
      conditions.push(inArray(ruleActivity.ruleId, idList(query.rule_id_in).concat(-1)));
    if (query.folder_id_in !== undefined)
      conditions.push(inArray(folderOfEntry, idList(query.folder_id_in).concat(-1)));
    // Ad and campaign ids are strings of digits: compared as text.
    if (query.ad_id_in !== undefined) conditions.push(inArray(ruleActivity.adId, commaList(query.ad_id_in).concat('')));
    const where = and(...conditions);
    const ordering = orderingWithId(query.ordering, ORDERING, [desc(ruleActivity.createdAt)], ruleActivity.id);
    const [results, [total]] = await Promise.all([
      entries(where, ordering, paging),
      app.db
        .select({ n: count() })
        .from(ruleActivity)
        .leftJoin(rules, eq(rules.id, ruleActivity.ruleId))
        .leftJoin(folders, eq(folders.id, folderOfEntry))
        .leftJoin(metaAdAccounts, eq(metaAdAccounts.adAccountId, folders.adAccountId))
        .where(where),
    ]);
    return paginate(request, paging, { count: total?.n ?? 0, results: results });
  });

  app.post('/rule_log/:id/undo/', { preHandler: requirePermission('create_update_rules') }, async (request) => {
    const entry = await engine().undo(pathId(request), actorOf(request));
    return (await byIds([entry.id]))[0];
  });

  app.post('/rules/:id/run_now/', { preHandler: requirePermission('create_update_rules') }, async (request) => {
    const result = await engine().runNow(pathId(request), actorOf(request));
    const ids = [...result.turnedOff, ...result.failed, ...(result.error ? [result.error] : [])].map((e) => e.id);
    return {
      status: result.error ? 'failed' : result.status,
      detail: result.note,
      turned_off: result.turnedOff.length,
      failed: result.failed.length + (result.error ? 1 : 0),
      results: await byIds(ids),
    };
  });

  app.get('/rules/:id/preview/', { preHandler: requirePermission('create_update_rules') }, async (request) => {
    return engine().preview(pathId(request));
  });

  app.get('/rules/:id/exemptions/', { preHandler: requirePermission('read_rules') }, async (request) => {
    const ruleId = pathId(request);
    await requireLiveRule(ruleId);
    const rows = await app.db
      .select()
      .from(ruleExemptions)
      .where(eq(ruleExemptions.ruleId, ruleId))
      .orderBy(asc(ruleExemptions.createdAt));
    const results = rows.map((r) => ({ object_id: r.objectId, created_at: new Date(r.createdAt).toISOString() }));
    return { count: results.length, next: null, previous: null, results };
  });

  app.delete(
    '/rules/:id/exemptions/:object_id/',
    { preHandler: requirePermission('create_update_rules') },
    async (request, reply) => {
      const ruleId = pathId(request);
      const objectId = String((request.params as Record<string, string>).object_id ?? '');
      await requireLiveRule(ruleId);
      const removed = await app.db
        .delete(ruleExemptions)
        .where(and(eq(ruleExemptions.ruleId, ruleId), eq(ruleExemptions.objectId, objectId)))
        .returning();
      if (!removed.length) throw notFound();
      return reply.status(204).send();
    },
  );
}
