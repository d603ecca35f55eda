/**
 * Folders: `GET/POST /api/general_page/`, `GET/PATCH /api/general_page/{id}/`,
 * `POST /api/folders/{id}/move_to_trash/` and `/restore/`.
 */
import { and, asc, count, eq, ilike, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { recordAudit } from '../audit/log';
import { requirePermission } from '../auth/plugin';
import { folders, metaAdAccounts, rules } from '../db/schema/index';
import { badRequest, ValidationError } from '../http/errors';
import { orderingTerms, paginate, pageRequest } from '../http/pagination';
import { pathId } from '../http/params';
import { parseBody } from '../http/validation';
import { FOLDER_PAGE_SIZE } from '../../src/domain/constants';
import { folderCreateSchema, folderUpdateSchema } from '../../src/domain/folders';
import { NEW_RULE_NAME } from '../../src/domain/rules';
import { AUDIT_ACTIONS, folderChangesText, folderCreatedText } from './changes';
import { auditActor, auditFolder, searchText, type RulesRouteOptions } from './context';
import { credentialsDiffer, mergeCredentials, readCredentials } from './credentials';
import { accountColumns, findAccount, folderDto, insertRule, requireFolder, rulesOfFolders } from './store';
import { containsPattern } from '../http/search';

const unknownAccount = () => new ValidationError({ meta_ad_account_id: ['Select an ad account from the list'] });

export default async function folderRoutes(app: FastifyInstance, { cipher }: RulesRouteOptions) {
  const readRules = requirePermission('read_rules');
  const changeRules = requirePermission('create_update_rules');
  const useTrash = requirePermission('delete_rules');

  async function liveFolderDto(id: number) {
    const { folder, account } = await requireFolder(app.db, id);
    const byFolder = await rulesOfFolders(app.db, [id], folder.isDeleted ? 'all' : 'live');
    return folderDto(folder, account, byFolder.get(id) ?? [], cipher);
  }

  app.get('/general_page/', { preHandler: readRules }, async (request) => {
    const query = request.query as Record<string, unknown>;
    const paging = pageRequest(query, FOLDER_PAGE_SIZE, 100);
    const search = searchText(query);
    const pattern = containsPattern(search);
    const where = and(
      eq(folders.isDeleted, false),
      search ? or(ilike(folders.name, pattern), ilike(metaAdAccounts.accountName, pattern)) : undefined,
    );
    const ordering = orderingTerms(
      query.ordering,
      {
        created_at: folders.createdAt,
        name: folders.name,
        client_type: folders.clientType,
        plan: folders.plan,
        ad_account: accountColumns.accountName,
        id: folders.id,
      },
      [asc(folders.createdAt)],
    );
    const [rows, [total]] = await Promise.all([
      app.db
        .select({ folder: folders, account: accountColumns })
        .from(folders)
        .leftJoin(metaAdAccounts, eq(metaAdAccounts.adAccountId, folders.adAccountId))
        .where(where)
        .orderBy(...ordering, asc(folders.id))
        .limit(paging.limit)
        .offset(paging.offset),
      search
        ? app.db
            .select({ n: count() })
            .from(folders)
            .leftJoin(metaAdAccounts, eq(metaAdAccounts.adAccountId, folders.adAccountId))
            .where(where)
        : app.db.select({ n: count() }).from(folders).where(where),
    ]);
    const byFolder = await rulesOfFolders(
      app.db,
      rows.map((r) => r.folder.id),
      'live',
    );
    const results = rows.map((r) => folderDto(r.folder, r.account, byFolder.get(r.folder.id) ?? [], cipher));
    return paginate(request, paging, { count: total?.n ?? 0, results: results });
  });

  app.post('/general_page/', { preHandler: changeRules }, async (request, reply) => {
    const body = parseBody(folderCreateSchema, request.body);
    const account = await findAccount(app.db, body.meta_ad_account_id);
    if (!account) throw unknownAccount();
    const credentials = body.extension.external_credentials.demio;
    const actor = auditActor(request);
    const folder = await app.db.transaction(async (tx) => {
      const [created] = await tx
        .insert(folders)
        .values({
          name: body.name,
          clientType: body.client_type,
          plan: body.plan,
          adAccountId: account.adAccountId,
          demioCredentials: credentials ? cipher.encrypt(credentials) : null,
        })
        .returning();
      const folderRef = auditFolder(created!, account);
      await recordAudit(tx, actor, {
        action: AUDIT_ACTIONS.folderCreated,
        changesText: folderCreatedText({ folder: created!, account, credentials }),
        folder: folderRef,
      });
      // SPEC §7 has no create-rule call: a new folder starts with one rule of the defaults.
      const rule = await insertRule(tx, created!, account, { name: NEW_RULE_NAME });
      await recordAudit(tx, actor, {
        action: AUDIT_ACTIONS.ruleCreated,
        folder: folderRef,
        rule: { id: rule.id, name: rule.name },
      });
      return created!;
    });
    reply.status(201);
    return liveFolderDto(folder.id);
  });

  app.get('/general_page/:id/', { preHandler: readRules }, async (request) => liveFolderDto(pathId(request)));

  app.patch('/general_page/:id/', { preHandler: changeRules }, async (request) => {
    const id = pathId(request);
    const { folder, account } = await requireFolder(app.db, id);
    if (folder.isDeleted) throw badRequest('This folder is in the trash. Restore it before editing.');
    const body = parseBody(folderUpdateSchema, request.body);
    const newAccount =
      body.meta_ad_account_id && body.meta_ad_account_id !== folder.adAccountId
        ? await findAccount(app.db, body.meta_ad_account_id)
        : account;
    if (!newAccount && body.meta_ad_account_id) throw unknownAccount();
    const storedCredentials = readCredentials(cipher, folder.demioCredentials);
    const credentials = body.extension
      ? mergeCredentials(storedCredentials, body.extension.external_credentials.demio)
      : storedCredentials;
    const next = {
      name: body.name ?? folder.name,
      clientType: body.client_type ?? folder.clientType,
      plan: body.plan ?? folder.plan,
      adAccountId: newAccount?.adAccountId ?? folder.adAccountId,
    };
    const changesText = folderChangesText(
      { folder, account, credentials: storedCredentials },
      { folder: next, account: newAccount, credentials },
    );
    if (changesText) {
      await app.db.transaction(async (tx) => {
        await tx
          .update(folders)
          .set({
            ...next,
            ...(credentialsDiffer(storedCredentials, credentials)
              ? { demioCredentials: credentials ? cipher.encrypt(credentials) : null }
              : {}),
            updatedAt: sql`now()`,
          })
          .where(eq(folders.id, id));
        await recordAudit(tx, auditActor(request), {
          action: AUDIT_ACTIONS.folderUpdated,
          changesText,
          folder: auditFolder({ id, name: next.name }, newAccount),
        });
      });
    }
    return liveFolderDto(id);
  });

  app.post('/folders/:id/move_to_trash/', { preHandler: changeRules }, async (request) => {
    const id = pathId(request);
    const { folder, account } = await requireFolder(app.db, id);
    if (!folder.isDeleted) {
      await app.db.transaction(async (tx) => {
        await tx
          .update(folders)
          .set({ isDeleted: true, deletedAt: sql`now()`, updatedAt: sql`now()` })
          .where(eq(folders.id, id));
        await tx
          .update(rules)
          .set({ isDeleted: true, deletedAt: sql`now()`, updatedAt: sql`now()` })
          .where(and(eq(rules.folderId, id), eq(rules.isDeleted, false)));
        await recordAudit(tx, auditActor(request), {
          action: AUDIT_ACTIONS.folderTrashed,
          folder: auditFolder(folder, account),
        });
      });
    }
    return liveFolderDto(id);
  });

  app.post('/folders/:id/restore/', { preHandler: useTrash }, async (request) => {
    const id = pathId(request);
    const { folder, account } = await requireFolder(app.db, id);
    if (folder.isDeleted) {
      await app.db.transaction(async (tx) => {
        await tx
          .update(folders)
          .set({ isDeleted: false, deletedAt: null, updatedAt: sql`now()` })
          .where(eq(folders.id, id));
        // SPEC §4: restoring a folder restores each of its rules.
        await tx
          .update(rules)
          .set({ isDeleted: false, deletedAt: null, updatedAt: sql`now()` })
          .where(and(eq(rules.folderId, id), eq(rules.isDeleted, true)));
        await recordAudit(tx, auditActor(request), {
          action: AUDIT_ACTIONS.folderRestored,
          folder: auditFolder(folder, account),
        });
      });
    }
    return liveFolderDto(id);
  });
}
