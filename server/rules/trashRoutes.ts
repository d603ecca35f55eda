/**
 * The trash: `GET /api/trash_page/` lists trashed folders (with their rules) and live folders
 * holding trashed rules (with those rules only), most recently trashed first;
 * `DELETE /api/trash_page/{id}/` deletes a trashed folder for good.
 */
import { and, count, desc, eq, exists, ilike, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { recordAudit } from '../audit/log';
import { requirePermission } from '../auth/plugin';
import { folders, metaAdAccounts, rules } from '../db/schema/index';
import { badRequest } from '../http/errors';
import { orderingTerms, paginate, pageRequest } from '../http/pagination';
import { pathId } from '../http/params';
import { TRASH_PAGE_SIZE } from '../../src/domain/constants';
import { AUDIT_ACTIONS } from './changes';
import { auditActor, auditFolder, searchText, type RulesRouteOptions } from './context';
import { accountColumns, folderDto, requireFolder, rulesOfFolders } from './store';
import { containsPattern } from '../http/search';

/**
 * One row per folder in the trash view and when its newest item was trashed. Both halves read
 * partial indexes (folders_trash_idx, rules_trash_folder_idx), so the size of the live data does
 * not matter.
 */
const trashNodes = sql`(
  select folder_id, max(deleted_at) as trashed_at from (
    select ${folders.id} as folder_id, ${folders.deletedAt} as deleted_at from ${folders} where ${folders.isDeleted}
    union all
    select ${rules.folderId}, ${rules.deletedAt} from ${rules} where ${rules.isDeleted}
  ) as trashed group by folder_id
) as trash_nodes`;
const trashedAt = sql<Date | string | null>`trash_nodes.trashed_at`;

export default async function trashRoutes(app: FastifyInstance, { cipher }: RulesRouteOptions) {
  const useTrash = requirePermission('delete_rules');

  app.get('/trash_page/', { preHandler: useTrash }, async (request) => {
    const query = request.query as Record<string, unknown>;
    const paging = pageRequest(query, TRASH_PAGE_SIZE, 100);
    const search = searchText(query);
    const pattern = containsPattern(search);
    const matchingRule = app.db
      .select({ one: sql`1` })
      .from(rules)
      .where(and(eq(rules.folderId, folders.id), eq(rules.isDeleted, true), ilike(rules.name, pattern)));
    const where = search
      ? or(ilike(folders.name, pattern), ilike(metaAdAccounts.accountName, pattern), exists(matchingRule))
      : undefined;
    const ordering = orderingTerms(
      query.ordering,
      { trashed_at: trashedAt, deleted_at: trashedAt, name: folders.name, created_at: folders.createdAt },
      [desc(trashedAt)],
    );
    const [rows, [total]] = await Promise.all([
      app.db
        .select({ folder: folders, account: accountColumns, trashedAt })
        .from(trashNodes)
        .innerJoin(folders, sql`${folders.id} = trash_nodes.folder_id`)
        .leftJoin(metaAdAccounts, eq(metaAdAccounts.adAccountId, folders.adAccountId))
        .where(where)
        .orderBy(...ordering, desc(folders.id))
        .limit(paging.limit)
        .offset(paging.offset),
      app.db
        .select({ n: count() })
        .from(trashNodes)
        .innerJoin(folders, sql`${folders.id} = trash_nodes.folder_id`)
        .leftJoin(metaAdAccounts, eq(metaAdAccounts.adAccountId, folders.adAccountId))
        .where(where),
    ]);
    const deletedFolders = rows.filter((r) => r.folder.isDeleted).map((r) => r.folder.id);
    const liveFolders = rows.filter((r) => !r.folder.isDeleted).map((r) => r.folder.id);
    const [allRules, trashedRules] = await Promise.all([
      rulesOfFolders(app.db, deletedFolders, 'all'),
      rulesOfFolders(app.db, liveFolders, 'deleted'),
    ]);
    const results = rows.map((r) => ({
      ...folderDto(r.folder, r.account, (r.folder.isDeleted ? allRules : trashedRules).get(r.folder.id) ?? [], cipher),
      trashed_at: r.trashedAt === null ? null : new Date(r.trashedAt).toISOString(),
    }));
    return paginate(request, paging, { count: total?.n ?? 0, results: results });
  });

  app.delete('/trash_page/:id/', { preHandler: useTrash }, async (request, reply) => {
    const id = pathId(request);
    const { folder, account } = await requireFolder(app.db, id);
    if (!folder.isDeleted) throw badRequest('Move the folder to the trash before deleting it.');
    await app.db.transaction(async (tx) => {
      await tx.delete(folders).where(eq(folders.id, id));
      await recordAudit(tx, auditActor(request), {
        action: AUDIT_ACTIONS.folderDeleted,
        folder: auditFolder(folder, account),
      });
    });
    return reply.status(204).send();
  });
}
