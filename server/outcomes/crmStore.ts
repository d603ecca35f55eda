/**
 * CRM lead outcomes kept (table lead_outcomes, source 'crm'): a folder's checked outcomes recorded
 * once each, and what the folder holds by stage. A row keeps the lead's key (e-mail SHA-256 or Meta
 * lead id), the stage and the time: nothing else of the file or the post.
 */
import { and, countDistinct, eq, lt, max } from 'drizzle-orm';
import { CRM_RETENTION_DAYS, type CrmResult, type LeadOutcomeSummary } from '../../shared/leadOutcomes';
import { type AuditActor, recordAudit } from '../audit/log';
import type { Database } from '../db/client';
import { leadOutcomes } from '../db/schema/index';
import { auditFolder } from '../rules/context';
import { requireLiveFolder } from './crmKeys';
import type { CrmParsed } from './crmParse';
import { LEAD_STAGES } from './quality';

export const CRM_SOURCE = 'crm';
export const UPLOAD_ACTION = 'Lead outcomes uploaded';
/** Rows a statement inserts at most (PostgreSQL's 65,535 parameters over 6 columns, with room). */
const INSERT_CHUNK = 1000;

export function createCrmStore(db: Database) {
  /** The zone a folder's dates and offset-less times are read in: its ad account's, else UTC. */
  async function zoneOf(folderId: number): Promise<string> {
    const { account } = await requireLiveFolder(db, folderId);
    return account?.timezoneName || 'UTC';
  }

  /** Writes the outcomes, first deleting the folder's CRM outcomes past CRM_RETENTION_DAYS. */
  async function insert(tx: Database, folderId: number, parsed: CrmParsed): Promise<number> {
    const cutoff = new Date(Date.now() - CRM_RETENTION_DAYS * 24 * 60 * 60 * 1000);
    await tx
      .delete(leadOutcomes)
      .where(
        and(
          eq(leadOutcomes.folderId, folderId),
          eq(leadOutcomes.source, CRM_SOURCE),
          lt(leadOutcomes.occurredAt, cutoff),
        ),
      );
    let added = 0;
    for (let i = 0; i < parsed.outcomes.length; i += INSERT_CHUNK) {
      const rows = parsed.outcomes.slice(i, i + INSERT_CHUNK).map((o) => ({
        folderId,
        leadKey: o.leadKey,
        kind: o.stage,
        occurredAt: o.occurredAt,
        source: CRM_SOURCE,
        sourceRef: o.sourceRef,
      }));
      const inserted = await tx
        .insert(leadOutcomes)
        .values(rows)
        .onConflictDoNothing()
        .returning({ id: leadOutcomes.id });
      added += inserted.length;
    }
    return added;
  }

  const resultOf = (parsed: CrmParsed, added: number): CrmResult => ({
    added,
    already_known: parsed.outcomes.length - added + parsed.repeated,
    refused: parsed.refused,
    errors: parsed.errors,
  });

  /** A post's outcomes for the key's folder (no audit entry: the key's creation is the audited act). */
  async function record(folderId: number, parsed: CrmParsed): Promise<CrmResult> {
    return resultOf(parsed, await db.transaction((tx) => insert(tx, folderId, parsed)));
  }

  /** An upload's outcomes, with an audit entry saying what it did. */
  async function upload(actor: AuditActor, folderId: number, parsed: CrmParsed): Promise<CrmResult> {
    const added = await db.transaction(async (tx) => {
      const { folder, account } = await requireLiveFolder(tx, folderId);
      const n = await insert(tx, folderId, parsed);
      const result = resultOf(parsed, n);
      await recordAudit(tx, actor, {
        action: UPLOAD_ACTION,
        changesText: `added: ${result.added}; already known: ${result.already_known}; refused: ${result.refused}`,
        folder: auditFolder(folder, account),
      });
      return n;
    });
    return resultOf(parsed, added);
  }

  /** Leads that reached each stage (each lead once a stage), and when the last outcome came in. */
  async function summary(folderId: number): Promise<Omit<LeadOutcomeSummary, 'key'>> {
    await requireLiveFolder(db, folderId);
    const where = and(eq(leadOutcomes.folderId, folderId), eq(leadOutcomes.source, CRM_SOURCE));
    const [byStage, [last]] = await Promise.all([
      db
        .select({ stage: leadOutcomes.kind, leads: countDistinct(leadOutcomes.leadKey) })
        .from(leadOutcomes)
        .where(where)
        .groupBy(leadOutcomes.kind),
      db
        .select({ at: max(leadOutcomes.recordedAt) })
        .from(leadOutcomes)
        .where(where),
    ]);
    const leads = new Map(byStage.map((r) => [r.stage, Number(r.leads)]));
    return {
      stages: LEAD_STAGES.map((stage) => ({ stage, leads: leads.get(stage) ?? 0 })),
      last_recorded_at: last?.at ? new Date(last.at).toISOString() : null,
    };
  }

  return { zoneOf, record, upload, summary };
}

export type CrmStore = ReturnType<typeof createCrmStore>;
