/**
 * Reading the rule engine's log for the API: the rule log page (`GET /api/rule_log/`), entries by
 * id (the answers of Run now and Undo), and a rule's exemptions.
 */
import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { RuleLogEntryDto } from '../../src/domain/contracts';
import type { Database } from '../db/client';
import { folders, metaAdAccounts, ruleActivity, ruleExemptions, ruleRuns, rules } from '../db/schema/index';
import { notFound } from '../http/errors';
import {
  cappedSlice,
  commaList,
  DEFAULT_COUNT_CAP,
  idList,
  orderingWithId,
  type PageRequest,
  type Slice,
} from '../http/pagination';
import { searchAny } from '../http/search';
import type { ActivityRow } from './activity';

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

export interface RuleLogFilters {
  search?: string;
  ordering?: string;
  /** Comma-separated ids; present but naming none matches nothing. */
  rule_id_in?: string;
  folder_id_in?: string;
  ad_id_in?: string;
}

/** An entry's folder: its rule's, or the one it was written with when the rule is gone. */
const folderOfEntry = sql`coalesce(${rules.folderId}, ${ruleActivity.folderId})`;

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

async function entries(db: Database, where: SQL | undefined, ordering: SQL[], paging?: PageRequest) {
  const query = db
    .select({
      entry: ruleActivity,
      rule: rules,
      folder: folders,
      account: metaAdAccounts,
      exemptSince: ruleExemptions.createdAt,
      run: { outcome: ruleRuns.outcome, decision: ruleRuns.decision },
    })
    .from(ruleActivity)
    .leftJoin(rules, eq(rules.id, ruleActivity.ruleId))
    .leftJoin(folders, eq(folders.id, folderOfEntry))
    .leftJoin(metaAdAccounts, eq(metaAdAccounts.adAccountId, folders.adAccountId))
    .leftJoin(
      ruleExemptions,
      and(eq(ruleExemptions.ruleId, ruleActivity.ruleId), eq(ruleExemptions.objectId, ruleActivity.adId)),
    )
    .leftJoin(ruleRuns, eq(ruleRuns.id, ruleActivity.runId))
    .where(where)
    .orderBy(...ordering);
  const rows = paging ? await query.limit(paging.limit).offset(paging.offset) : await query;
  return rows.map(({ entry, rule, folder, account, exemptSince, run }) => ({
    ...toDto(entry, rule, folder, account, exemptSince !== null),
    run_id: entry.runId,
    decision:
      entry.action === 'run_held' && run?.outcome === 'held'
        ? ((run.decision as 'approved' | 'dismissed' | null) ?? ('pending' as const))
        : null,
  }));
}

/** Entries by id, in id order. */
export const entriesByIds = (db: Database, ids: number[]) =>
  entries(db, inArray(ruleActivity.id, ids.length ? ids : [-1]), [asc(ruleActivity.id)]);

/** One page of finished entries, newest first unless ordered otherwise. */
export async function listRuleLog(
  db: Database,
  paging: PageRequest,
  filters: RuleLogFilters,
  countCap = DEFAULT_COUNT_CAP,
): Promise<Slice<RuleLogEntryDto>> {
  const conditions: SQL[] = [eq(ruleActivity.state, 'done')];
  const search = searchAny(filters.search, [
    ruleActivity.adId,
    ruleActivity.action,
    rules.name,
    folders.name,
    metaAdAccounts.accountName,
    sql`${ruleActivity.reason}::text`,
  ]);
  if (search) conditions.push(search);
  if (filters.rule_id_in !== undefined)
    conditions.push(inArray(ruleActivity.ruleId, idList(filters.rule_id_in).concat(-1)));
  if (filters.folder_id_in !== undefined)
    conditions.push(inArray(folderOfEntry, idList(filters.folder_id_in).concat(-1)));
  // Ad and campaign ids are strings of digits: compared as text.
  if (filters.ad_id_in !== undefined)
    conditions.push(inArray(ruleActivity.adId, commaList(filters.ad_id_in).concat('')));
  const where = and(...conditions);
  const ordering = orderingWithId(filters.ordering, ORDERING, [desc(ruleActivity.createdAt)], ruleActivity.id);
  return cappedSlice(
    paging,
    countCap,
    entries(db, where, ordering, { limit: paging.limit + 1, offset: paging.offset }),
    db.select({ n: count() }).from(
      db
        .select({ id: ruleActivity.id })
        .from(ruleActivity)
        .leftJoin(rules, eq(rules.id, ruleActivity.ruleId))
        .leftJoin(folders, eq(folders.id, folderOfEntry))
        .leftJoin(metaAdAccounts, eq(metaAdAccounts.adAccountId, folders.adAccountId))
        .where(where)
        .limit(countCap + 1)
        .as('capped'),
    ),
  );
}

async function requireLiveRule(db: Database, ruleId: number) {
  const [row] = await db
    .select({ id: rules.id })
    .from(rules)
    .where(and(eq(rules.id, ruleId), eq(rules.isDeleted, false)));
  if (!row) throw notFound();
}

/** The objects a live rule leaves alone, oldest exemption first. */
export async function listExemptions(db: Database, ruleId: number) {
  await requireLiveRule(db, ruleId);
  const rows = await db
    .select()
    .from(ruleExemptions)
    .where(eq(ruleExemptions.ruleId, ruleId))
    .orderBy(asc(ruleExemptions.createdAt));
  return rows.map((r) => ({ object_id: r.objectId, created_at: new Date(r.createdAt).toISOString() }));
}

/** The rule may act on the object again; 404 when it was not exempt. */
export async function removeExemption(db: Database, ruleId: number, objectId: string): Promise<void> {
  await requireLiveRule(db, ruleId);
  const removed = await db
    .delete(ruleExemptions)
    .where(and(eq(ruleExemptions.ruleId, ruleId), eq(ruleExemptions.objectId, objectId)))
    .returning();
  if (!removed.length) throw notFound();
}
