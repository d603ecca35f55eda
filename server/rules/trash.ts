/**
 * The trash: trashed folders (with their rules) and live folders holding trashed rules (with
 * those rules only), most recently trashed first; deleting a trashed folder for good.
 */
import { count, desc, eq, sql } from 'drizzle-orm';
import type { FolderDto } from '../../shared/folders';
import { recordAudit, type AuditActor } from '../audit/log';
import type { Database } from '../db/client';
import { folders, metaAdAccounts, rules } from '../db/schema/index';
import { badRequest } from '../http/errors';
import { orderingKeys, orderingTerms, sliceWithTotal, type PageRequest, type Slice } from '../http/pagination';
import { indexedContains } from '../http/search';
import { AUDIT_ACTIONS } from './changes';
import { auditFolder } from './context';
import type { CredentialCipher } from './credentials';
import {
  accountColumns,
  folderDto,
  folderOrAccountNameContains,
  requireFolder,
  rulesOfFolders,
  type FolderRow,
} from './store';

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

export type TrashFolderDto = FolderDto & { trashed_at: string | null };

export function createTrashStore(db: Database, { cipher }: { cipher: CredentialCipher }) {
  async function list(
    { limit, offset }: PageRequest,
    query: { search?: string; ordering?: string },
  ): Promise<Slice<TrashFolderDto>> {
    const search = query.search?.trim() ?? '';
    // The folders the search names (by their name, their account's or a trashed rule's), found
    // first through the name indexes: a filter on each of the trash's rows would read them all.
    const where = search
      ? sql`trash_nodes.folder_id = any(array(
          select ${folders.id} from ${folders} where ${folderOrAccountNameContains(search)}
          union all
          select ${rules.folderId} from ${rules} where ${rules.isDeleted} and ${indexedContains(rules.name, search)}))`
      : undefined;
    const ordering = orderingTerms(
      query.ordering,
      { trashed_at: trashedAt, deleted_at: trashedAt, name: folders.name, created_at: folders.createdAt },
      [desc(trashedAt)],
    );
    // Sorted by when they were trashed (the screen's order), the page's folders are taken from the
    // trash's rows alone and only they are joined to their folders and accounts: joined first, the
    // whole trash (a thousand rows at full size) was joined, counted and sorted to keep ten (4.4 → 1.6 ms).
    const byTrashAlone = orderingKeys(query.ordering).every((key) => key === 'trashed_at' || key === 'deleted_at');
    const rowsFrom = byTrashAlone
      ? sql`(select folder_id, trashed_at, count(*) over () as total from ${trashNodes} where ${where ?? sql`true`}
          order by ${sql.join([...ordering, sql`folder_id desc`], sql`, `)} limit ${limit} offset ${offset}) as trash_nodes`
      : trashNodes;
    const { count: total, results: rows } = await sliceWithTotal(
      db
        // Every trash row is grouped and sorted for the page anyway: counting them there is free.
        .select({
          folder: folders,
          account: accountColumns,
          trashedAt,
          total: byTrashAlone ? sql<number>`trash_nodes.total` : sql<number>`count(*) over ()`,
        })
        .from(rowsFrom)
        .innerJoin(folders, sql`${folders.id} = trash_nodes.folder_id`)
        .leftJoin(metaAdAccounts, eq(metaAdAccounts.adAccountId, folders.adAccountId))
        .where(byTrashAlone ? undefined : where)
        .orderBy(...ordering, desc(folders.id))
        .limit(limit)
        .offset(byTrashAlone ? 0 : offset),
      offset,
      () =>
        db
          .select({ n: count() })
          .from(trashNodes)
          .innerJoin(folders, sql`${folders.id} = trash_nodes.folder_id`)
          .where(where),
    );
    // One read for both kinds of row: a live folder's live rules are few, and left out here.
    const rulesOf = await rulesOfFolders(
      db,
      rows.map((r) => r.folder.id),
      'all',
    );
    const shown = (folder: FolderRow) => {
      const own = rulesOf.get(folder.id) ?? [];
      return folder.isDeleted ? own : own.filter((rule) => rule.isDeleted);
    };
    return {
      count: total,
      results: rows.map((r) => ({
        ...folderDto(r.folder, r.account, shown(r.folder), cipher),
        trashed_at: r.trashedAt === null ? null : new Date(r.trashedAt).toISOString(),
      })),
    };
  }

  /** Only a folder in the trash can be deleted; its rules go with it. */
  async function deleteFolder(actor: AuditActor, id: number): Promise<void> {
    const { folder, account } = await requireFolder(db, id);
    if (!folder.isDeleted) throw badRequest('Move the folder to the trash before deleting it.');
    await db.transaction(async (tx) => {
      await tx.delete(folders).where(eq(folders.id, id));
      await recordAudit(tx, actor, { action: AUDIT_ACTIONS.folderDeleted, folder: auditFolder(folder, account) });
    });
  }

  return { list, deleteFolder };
}

export type TrashStore = ReturnType<typeof createTrashStore>;
