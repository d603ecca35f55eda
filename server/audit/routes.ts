/**
 * `GET /api/log/`: the audit log, newest first, with offset/limit paging, multi-column ordering
 * (`ad_account` sorts by folder name, SPEC §7), search, rule_id_in and folder_id_in.
 */
import { and, count, desc, inArray, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { requirePermission } from '../auth/plugin';
import { auditLog } from '../db/schema/index';
import { idList, orderingWithId, paginate, pageRequest } from '../http/pagination';
import { searchAny } from '../http/search';
import type { LogEntryDto } from '../../src/domain/contracts';

export type { LogEntryDto };

const ORDERING = {
  timestamp: auditLog.timestamp,
  actor: auditLog.actor,
  folder_name: auditLog.folderName,
  ad_account: auditLog.folderName,
  meta_ad_account_name: auditLog.metaAdAccountName,
  action: auditLog.action,
  changes_text: auditLog.changesText,
  rule_name: auditLog.ruleName,
  rule: auditLog.ruleName,
  id: auditLog.id,
};

export default async function auditRoutes(app: FastifyInstance) {
  app.get('/log/', { preHandler: requirePermission('view_logs') }, async (request) => {
    const query = request.query as Record<string, unknown>;
    const paging = pageRequest(query, 10, 100);
    const conditions: SQL[] = [];
    const search = searchAny(query.search, [
      auditLog.actor,
      auditLog.folderName,
      auditLog.metaAdAccountName,
      auditLog.ruleName,
      auditLog.action,
      auditLog.changesText,
    ]);
    if (search) conditions.push(search);
    if (query.rule_id_in !== undefined) conditions.push(inArray(auditLog.ruleId, idList(query.rule_id_in).concat(-1)));
    if (query.folder_id_in !== undefined)
      conditions.push(inArray(auditLog.folderId, idList(query.folder_id_in).concat(-1)));
    const where = conditions.length ? and(...conditions) : undefined;
    const ordering = orderingWithId(query.ordering, ORDERING, [desc(auditLog.timestamp)], auditLog.id);
    const [rows, [total]] = await Promise.all([
      app.db
        .select()
        .from(auditLog)
        .where(where)
        .orderBy(...ordering)
        .limit(paging.limit)
        .offset(paging.offset),
      app.db.select({ n: count() }).from(auditLog).where(where),
    ]);
    const results: LogEntryDto[] = rows.map((r) => ({
      id: r.id,
      timestamp: r.timestamp.toISOString(),
      actor: r.actor,
      folder_name: r.folderName,
      meta_ad_account_name: r.metaAdAccountName,
      action: r.action,
      changes_text: r.changesText,
      rule_name: r.ruleName,
      rule_id: r.ruleId,
      folder_id: r.folderId,
    }));
    return paginate(request, paging, { count: total?.n ?? 0, results: results });
  });
}
