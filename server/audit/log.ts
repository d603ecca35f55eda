/**
 * The audit log (`/api/log/`): one entry per change a user makes to folders, rules, users and
 * groups, written here and read back a page at a time. Names are copied at write time so an
 * entry stays readable after what it names is gone.
 */
import { and, count, desc, inArray, type SQL } from 'drizzle-orm';
import type { LogEntryDto } from '../../src/domain/contracts';
import type { Database } from '../db/client';
import { auditLog } from '../db/schema/index';
import {
  cappedSlice,
  DEFAULT_COUNT_CAP,
  idList,
  orderingWithId,
  type PageRequest,
  type Slice,
} from '../http/pagination';
import { searchAny } from '../http/search';

export interface AuditActor {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
}

export interface AuditEntry {
  action: string;
  changesText?: string;
  folder?: { id: number; name: string; adAccountName?: string | null } | null;
  rule?: { id: number; name: string } | null;
}

/** 'First Last', or the e-mail address when the name is blank. */
export function actorName(actor: AuditActor): string {
  return `${actor.first_name} ${actor.last_name}`.trim() || actor.email;
}

/** A value as a log text shows it: '—' for nothing, objects as JSON. */
const show = (v: unknown) =>
  v === null || v === undefined || v === '' ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v);

/** `{name: ['Old', 'New']}` → "name: Old → New"; unchanged fields are left out. */
export function describeChanges(changes: Record<string, [unknown, unknown]>): string {
  return Object.entries(changes)
    .filter(([, [before, after]]) => show(before) !== show(after))
    .map(([field, [before, after]]) => `${field}: ${show(before)} → ${show(after)}`)
    .join('; ');
}

/** `{Name: 'Acme', Plan: 'solo'}` → "Name: Acme; Plan: solo" (what a new object was created with). */
export function describeValues(values: Record<string, unknown>): string {
  return Object.entries(values)
    .map(([field, value]) => `${field}: ${show(value)}`)
    .join('; ');
}

/** Writes one entry; pass a transaction as `db` to keep it atomic with the change itself. */
export async function recordAudit(db: Database, actor: AuditActor | null, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    actorId: actor?.id ?? null,
    actor: actor ? actorName(actor) : 'System',
    action: entry.action,
    changesText: entry.changesText ?? '',
    folderId: entry.folder?.id ?? null,
    folderName: entry.folder?.name ?? null,
    metaAdAccountName: entry.folder?.adAccountName ?? null,
    ruleId: entry.rule?.id ?? null,
    ruleName: entry.rule?.name ?? null,
  });
}

/** Sort keys of the log screen; `ad_account` sorts by folder name (SPEC §7). */
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

export interface AuditLogFilters {
  search?: string;
  ordering?: string;
  /** Comma-separated ids; present but naming no id matches nothing. */
  rule_id_in?: string;
  folder_id_in?: string;
}

/** One page of the log, newest first unless ordered otherwise. */
export async function listAuditLog(
  db: Database,
  { limit, offset }: PageRequest,
  filters: AuditLogFilters,
  countCap = DEFAULT_COUNT_CAP,
): Promise<Slice<LogEntryDto>> {
  const conditions: SQL[] = [];
  const search = searchAny(filters.search, [
    auditLog.actor,
    auditLog.folderName,
    auditLog.metaAdAccountName,
    auditLog.ruleName,
    auditLog.action,
    auditLog.changesText,
  ]);
  if (search) conditions.push(search);
  if (filters.rule_id_in !== undefined)
    conditions.push(inArray(auditLog.ruleId, idList(filters.rule_id_in).concat(-1)));
  if (filters.folder_id_in !== undefined)
    conditions.push(inArray(auditLog.folderId, idList(filters.folder_id_in).concat(-1)));
  const where = conditions.length ? and(...conditions) : undefined;
  const ordering = orderingWithId(filters.ordering, ORDERING, [desc(auditLog.timestamp)], auditLog.id);
  const { results: rows, ...page } = await cappedSlice(
    { limit, offset },
    countCap,
    db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(...ordering)
      .limit(limit + 1)
      .offset(offset),
    db.select({ n: count() }).from(
      db
        .select({ id: auditLog.id })
        .from(auditLog)
        .where(where)
        .limit(countCap + 1)
        .as('capped'),
    ),
  );
  return {
    ...page,
    results: rows.map((r) => ({
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
    })),
  };
}
