/**
 * Folders: the general view's list, creating (with its first rule), editing, trashing and
 * restoring (with their rules), each change audited. The folder routes are a line or two over these.
 */
import { and, asc, count, eq, sql } from 'drizzle-orm';
import { NEW_RULE_NAME } from '../../src/domain/rules';
import type { FolderDto } from '../../src/domain/folders';
import type { folderCreateSchema, folderUpdateSchema } from '../../src/domain/folders';
import type { z } from 'zod';
import { recordAudit, type AuditActor } from '../audit/log';
import type { Database } from '../db/client';
import { folders, metaAdAccounts, rules } from '../db/schema/index';
import { badRequest, ValidationError } from '../http/errors';
import { orderingTerms, sliceWithTotal, totalOf, type PageRequest, type Slice } from '../http/pagination';
import { AUDIT_ACTIONS, folderChangesText, folderCreatedText } from './changes';
import { auditFolder } from './context';
import {
  credentialsDiffer,
  mergeCredentials,
  readCredentials,
  type CredentialCipher,
  type StoredCredentials,
} from './credentials';
import {
  accountColumns,
  findAccount,
  folderDto,
  folderOrAccountNameContains,
  insertRule,
  requireFolder,
  rulesOfFolders,
} from './store';
import { healthOfAccounts, withSignals } from './folderSignals';

const unknownAccount = () => new ValidationError({ meta_ad_account_id: ['Select an ad account from the list'] });

export type FolderCreate = z.output<typeof folderCreateSchema>;
export type FolderUpdate = z.output<typeof folderUpdateSchema>;

const FOLDER_ORDERING = {
  created_at: folders.createdAt,
  name: folders.name,
  client_type: folders.clientType,
  plan: folders.plan,
  ad_account: accountColumns.accountName,
  id: folders.id,
};

export function createFolderStore(db: Database, cipher: CredentialCipher) {
  /** A folder with its rules (all of them when it is in the trash, else the live ones). */
  async function folderById(id: number): Promise<FolderDto> {
    const { folder, account } = await requireFolder(db, id);
    const byFolder = await rulesOfFolders(db, [id], folder.isDeleted ? 'all' : 'live', true);
    return (await withSignals(db, [folderDto(folder, account, byFolder.get(id) ?? [], cipher)], byFolder))[0]!;
  }

  /**
   * Live folders matching `search` (folder or ad account name), oldest first unless ordered
   * otherwise: the page with its total, the page's rules with what their conflicts are judged
   * from, and its accounts' health — three statements.
   */
  async function list(
    { limit, offset }: PageRequest,
    query: { search?: string; ordering?: string },
  ): Promise<Slice<FolderDto>> {
    const search = query.search?.trim() ?? '';
    const where = and(eq(folders.isDeleted, false), search ? folderOrAccountNameContains(search) : undefined);
    const ordering = orderingTerms(query.ordering, FOLDER_ORDERING, [asc(folders.createdAt)]);
    const counting = db.select({ n: count() }).from(folders).where(where);
    const { count: total, results: rows } = await sliceWithTotal(
      db
        .select({ folder: folders, account: accountColumns, total: totalOf(counting) })
        .from(folders)
        .leftJoin(metaAdAccounts, eq(metaAdAccounts.adAccountId, folders.adAccountId))
        .where(where)
        .orderBy(...ordering, asc(folders.id))
        .limit(limit)
        .offset(offset),
      offset,
      () => counting,
    );
    // The page's rules and its accounts' health, asked together.
    const health = healthOfAccounts(
      db,
      rows.map((r) => r.account?.adAccountId ?? null),
    );
    const byFolder = await rulesOfFolders(
      db,
      rows.map((r) => r.folder.id),
      'live',
      true,
    );
    const dtos = rows.map((r) => folderDto(r.folder, r.account, byFolder.get(r.folder.id) ?? [], cipher));
    return { count: total, results: await withSignals(db, dtos, byFolder, health) };
  }

  /** docs/contract.md#calls has no create-rule call: a new folder starts with one rule of the defaults. */
  async function create(actor: AuditActor, body: FolderCreate): Promise<FolderDto> {
    const account = await findAccount(db, body.meta_ad_account_id);
    if (!account) throw unknownAccount();
    const credentials = body.extension.external_credentials.demio;
    const folder = await db.transaction(async (tx) => {
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
      const rule = await insertRule(tx, created!, account, { name: NEW_RULE_NAME });
      await recordAudit(tx, actor, {
        action: AUDIT_ACTIONS.ruleCreated,
        folder: folderRef,
        rule: { id: rule.id, name: rule.name },
      });
      return created!;
    });
    return folderById(folder.id);
  }

  /** Changes what the body names; credentials equal to their mask are kept as stored. */
  async function update(actor: AuditActor, id: number, body: FolderUpdate): Promise<FolderDto> {
    const { folder, account } = await requireFolder(db, id);
    if (folder.isDeleted) throw badRequest('This folder is in the trash. Restore it before editing.');
    const newAccount =
      body.meta_ad_account_id && body.meta_ad_account_id !== folder.adAccountId
        ? await findAccount(db, body.meta_ad_account_id)
        : account;
    if (!newAccount && body.meta_ad_account_id) throw unknownAccount();
    const storedCredentials = readCredentials(cipher, folder.demioCredentials);
    const credentials: StoredCredentials = body.extension
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
      await db.transaction(async (tx) => {
        await tx
          .update(folders)
          .set({
            ...next,
            ...(credentialsDiffer(storedCredentials, credentials)
              ? { demioCredentials: credentials && credentials !== 'unreadable' ? cipher.encrypt(credentials) : null }
              : {}),
            updatedAt: sql`now()`,
          })
          .where(eq(folders.id, id));
        await recordAudit(tx, actor, {
          action: AUDIT_ACTIONS.folderUpdated,
          changesText,
          folder: auditFolder({ id, name: next.name }, newAccount),
        });
      });
    }
    return folderById(id);
  }

  /** The folder and its live rules go to the trash together; trashing it again changes nothing. */
  async function moveToTrash(actor: AuditActor, id: number): Promise<FolderDto> {
    const { folder, account } = await requireFolder(db, id);
    if (!folder.isDeleted) {
      await db.transaction(async (tx) => {
        await tx
          .update(folders)
          .set({ isDeleted: true, deletedAt: sql`now()`, updatedAt: sql`now()` })
          .where(eq(folders.id, id));
        await tx
          .update(rules)
          .set({ isDeleted: true, deletedAt: sql`now()`, updatedAt: sql`now()` })
          .where(and(eq(rules.folderId, id), eq(rules.isDeleted, false)));
        await recordAudit(tx, actor, { action: AUDIT_ACTIONS.folderTrashed, folder: auditFolder(folder, account) });
      });
    }
    return folderById(id);
  }

  /** docs/screens.md#states-and-transitions: restoring a folder restores each of its rules. */
  async function restore(actor: AuditActor, id: number): Promise<FolderDto> {
    const { folder, account } = await requireFolder(db, id);
    if (folder.isDeleted) {
      await db.transaction(async (tx) => {
        await tx
          .update(folders)
          .set({ isDeleted: false, deletedAt: null, updatedAt: sql`now()` })
          .where(eq(folders.id, id));
        await tx
          .update(rules)
          .set({ isDeleted: false, deletedAt: null, updatedAt: sql`now()` })
          .where(and(eq(rules.folderId, id), eq(rules.isDeleted, true)));
        await recordAudit(tx, actor, { action: AUDIT_ACTIONS.folderRestored, folder: auditFolder(folder, account) });
      });
    }
    return folderById(id);
  }

  return { folderById, list, create, update, moveToTrash, restore };
}
