/**
 * The audit log (`/api/log/`): one entry per change a user makes to folders, rules, users and
 * groups. Names are copied at write time so an entry stays readable after what it names is gone.
 */
import type { Database } from '../db/client';
import { auditLog } from '../db/schema/index';

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
