/**
 * Folders: the general view's list, creating (with its first rule), editing, trashing and
 * restoring (with their rules), each change audited. The folder routes are a line or two over these.
 */
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import { NEW_RULE_NAME } from '../../shared/rules';
import type { FolderDto } from '../../shared/folders';
import type { folderCreateSchema, folderUpdateSchema } from '../../shared/folders';
import type { z } from 'zod';
import { auditWith, recordAudit, type AuditActor } from '../audit/log';
import type { Database } from '../db/client';
import { folders, metaAdAccounts, rules } from '../db/schema/index';
import { badRequest, ValidationError } from '../http/errors';
import { orderingTerms, sliceWithTotal, totalOf, type PageRequest, type Slice, orderingKeys } from '../http/pagination';
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
  type AccountRow,
  type FolderRow,
  folderOrAccountNameContains,
  insertRule,
  requireFolder,
  rulesOfFolders,
} from './store';
import { readSignals, withSignals } from './folderSignals';
import { readBudgetLimits } from '../../shared/budgetLimits';
import { mergeBudgetLimits } from './folderBudgetLimits';

const unknownAccount = () => new ValidationError({ meta_ad_account_id: ['Select an ad account from the list'] });

export type FolderCreate = z.output<typeof folderCreateSchema>;
export type FolderUpdate = z.output<typeof folderUpdateSchema>;
type FoundFolder = { folder: FolderRow; account: AccountRow | null };

const FOLDER_ORDERING = {
  created_at: folders.createdAt,
  name: folders.name,
  client_type: folders.clientType,
  plan: folders.plan,
  ad_account: accountColumns.accountName,
  id: folders.id,
};
/** The sort keys that are the account's, not the folder's. */
const FOLDER_ORDERING_BY_ACCOUNT = new Set(['ad_account']);

/** `writes`: where changes run (their own lane on PostgreSQL, app.writeDb); `db` when absent. */
type FolderStoreOptions = { cipher: CredentialCipher; writes?: Database };

/** A folder with its rules (all of them when it is in the trash, else the live ones) and its signals. */
async function folderReply(
  tx: Database,
  cipher: CredentialCipher,
  folder: FolderRow,
  account: AccountRow | null,
): Promise<FolderDto> {
  const byFolder = await rulesOfFolders(tx, [folder.id], folder.isDeleted ? 'all' : 'live');
  return (await withSignals(tx, [folderDto(folder, account, byFolder.get(folder.id) ?? [], cipher)]))[0]!;
}

/**
 * Each change below is one transaction on one connection (docs/decisions.md, "Server"):
 * the folder read and held, the change with its audit entry as one statement (the folder's new
 * row returned), and the answer's rules and signals read. Under a team's traffic every separate
 * statement waited its turn for a connection behind the colleagues' list reads.
 */
const changeFolder = <T>(writes: Database, id: number, change: (tx: Database, found: FoundFolder) => Promise<T>) =>
  writes.transaction(async (tx) => change(tx, await requireFolder(tx, id, true)));

/** One folder, and the general view's page of them. */
function folderReadsOf(db: Database, { cipher }: FolderStoreOptions) {
  async function folderById(id: number): Promise<FolderDto> {
    const { folder, account } = await requireFolder(db, id);
    return folderReply(db, cipher, folder, account);
  }

  /**
   * Live folders matching `search` (folder or ad account name), oldest first unless ordered
   * otherwise: the page with its total, the page's rules, its accounts' health, and the live
   * active rules of every live folder on its accounts (what their conflicts are judged among) —
   * four statements.
   */
  async function list(
    { limit, offset }: PageRequest,
    query: { search?: string; ordering?: string },
  ): Promise<Slice<FolderDto>> {
    const search = query.search?.trim() ?? '';
    const where = and(eq(folders.isDeleted, false), search ? folderOrAccountNameContains(search) : undefined);
    const ordering = orderingTerms(query.ordering, FOLDER_ORDERING, [asc(folders.createdAt)]);
    const counting = db.select({ n: count() }).from(folders).where(where);
    // Unless the search or the sort needs the accounts, the page's folders are found first (for the
    // default sort, an index-only walk of its index) and only they are joined to their accounts:
    // joined first, every live folder was sorted with its account to keep twenty (2.2 → 0.9 ms).
    const byFoldersAlone = !search && !orderingKeys(query.ordering).some((key) => FOLDER_ORDERING_BY_ACCOUNT.has(key));
    const pageIds = db
      .select({ id: folders.id })
      .from(folders)
      .where(where)
      .orderBy(...ordering, asc(folders.id))
      .limit(limit)
      .offset(offset);
    const { count: total, results: rows } = await sliceWithTotal(
      db
        .select({ folder: folders, account: accountColumns, total: totalOf(counting) })
        .from(folders)
        .leftJoin(metaAdAccounts, eq(metaAdAccounts.adAccountId, folders.adAccountId))
        .where(byFoldersAlone ? inArray(folders.id, pageIds) : where)
        .orderBy(...ordering, asc(folders.id))
        .limit(limit)
        .offset(byFoldersAlone ? 0 : offset),
      offset,
      () => counting,
    );
    // The page's rules, its accounts' health and the rules their conflicts are judged among, asked together.
    const signals = readSignals(
      db,
      rows.map((r) => r.account?.adAccountId ?? null),
    );
    const byFolder = await rulesOfFolders(
      db,
      rows.map((r) => r.folder.id),
      'live',
    );
    const dtos = rows.map((r) => folderDto(r.folder, r.account, byFolder.get(r.folder.id) ?? [], cipher));
    return { count: total, results: await withSignals(db, dtos, signals) };
  }

  return { folderById, list };
}

/** A new folder (with its first rule) and a folder's edit, each audited. */
function folderSavesOf(db: Database, { cipher, writes = db }: FolderStoreOptions) {
  /** docs/contract.md#calls has no create-rule call: a new folder starts with one rule of the defaults. */
  async function create(actor: AuditActor, body: FolderCreate): Promise<FolderDto> {
    const account = await findAccount(db, body.meta_ad_account_id);
    if (!account) throw unknownAccount();
    const credentials = body.extension.external_credentials.demio;
    const budgetLimits = body.budget_limits ? mergeBudgetLimits(null, body.budget_limits) : null;
    return writes.transaction(async (tx) => {
      const [created] = await tx
        .insert(folders)
        .values({
          name: body.name,
          clientType: body.client_type,
          plan: body.plan,
          adAccountId: account.adAccountId,
          demioCredentials: credentials ? cipher.encrypt(credentials) : null,
          budgetLimits,
          alertEmails: body.alert_emails,
        })
        .returning();
      const folderRef = auditFolder(created!, account);
      await recordAudit(tx, actor, {
        action: AUDIT_ACTIONS.folderCreated,
        changesText: folderCreatedText({
          folder: created!,
          account,
          credentials,
          budgetLimits: readBudgetLimits(budgetLimits),
        }),
        folder: folderRef,
      });
      const rule = await insertRule(tx, created!, account, { name: NEW_RULE_NAME });
      await recordAudit(tx, actor, {
        action: AUDIT_ACTIONS.ruleCreated,
        folder: folderRef,
        rule: { id: rule.id, name: rule.name },
      });
      return folderReply(tx, cipher, created!, account);
    });
  }

  /** Changes what the body names; credentials equal to their mask are kept as stored. */
  const update = (actor: AuditActor, id: number, body: FolderUpdate): Promise<FolderDto> =>
    changeFolder(writes, id, async (tx, { folder, account }) => {
      if (folder.isDeleted) throw badRequest('This folder is in the trash. Restore it before editing.');
      const newAccount =
        body.meta_ad_account_id && body.meta_ad_account_id !== folder.adAccountId
          ? await findAccount(tx, body.meta_ad_account_id)
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
        alertEmails: body.alert_emails ?? folder.alertEmails,
      };
      const storedLimits = readBudgetLimits(folder.budgetLimits);
      const budgetLimits = body.budget_limits
        ? mergeBudgetLimits(folder.budgetLimits, body.budget_limits)
        : storedLimits;
      const changesText = folderChangesText(
        { folder, account, credentials: storedCredentials, budgetLimits: storedLimits },
        { folder: next, account: newAccount, credentials, budgetLimits },
      );
      if (!changesText) return folderReply(tx, cipher, folder, account);
      const logged = auditWith(tx, actor, {
        action: AUDIT_ACTIONS.folderUpdated,
        changesText,
        folder: auditFolder({ id, name: next.name }, newAccount),
      });
      const [updated] = await tx
        .with(logged)
        .update(folders)
        .set({
          ...next,
          ...(credentialsDiffer(storedCredentials, credentials)
            ? { demioCredentials: credentials && credentials !== 'unreadable' ? cipher.encrypt(credentials) : null }
            : {}),
          ...(body.budget_limits ? { budgetLimits } : {}),
          updatedAt: sql`now()`,
        })
        .where(eq(folders.id, id))
        .returning();
      return folderReply(tx, cipher, updated!, newAccount);
    });

  return { create, update };
}

/** A folder and its rules moved to the trash or back, audited. */
function folderMovesOf(db: Database, { cipher, writes = db }: FolderStoreOptions) {
  /**
   * The folder and its rules change together, with its audit entry, in one statement: `trash`
   * moves it and its live rules to the trash; otherwise it and each of its trashed rules come back
   * (docs/screens.md#states-and-transitions). A folder already where it is asked to go stays.
   */
  const moveFolder = (actor: AuditActor, id: number, trash: boolean): Promise<FolderDto> =>
    changeFolder(writes, id, async (tx, { folder, account }) => {
      if (folder.isDeleted === trash) return folderReply(tx, cipher, folder, account);
      const moved = { isDeleted: trash, deletedAt: trash ? sql`now()` : null, updatedAt: sql`now()` };
      const itsRules = tx.$with('its_rules').as(
        tx
          .update(rules)
          .set(moved)
          .where(and(eq(rules.folderId, id), eq(rules.isDeleted, !trash))),
      );
      const logged = auditWith(tx, actor, {
        action: trash ? AUDIT_ACTIONS.folderTrashed : AUDIT_ACTIONS.folderRestored,
        folder: auditFolder(folder, account),
      });
      const [updated] = await tx
        .with(itsRules, logged)
        .update(folders)
        .set(moved)
        .where(eq(folders.id, id))
        .returning();
      return folderReply(tx, cipher, updated!, account);
    });

  const moveToTrash = (actor: AuditActor, id: number) => moveFolder(actor, id, true);
  const restore = (actor: AuditActor, id: number) => moveFolder(actor, id, false);

  return { moveToTrash, restore };
}

export function createFolderStore(db: Database, options: FolderStoreOptions) {
  return { ...folderReadsOf(db, options), ...folderSavesOf(db, options), ...folderMovesOf(db, options) };
}

export type FolderStore = ReturnType<typeof createFolderStore>;
