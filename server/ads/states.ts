/**
 * Objects' states as the API answers them (shared/ads.ts): the reason objectState.ts works out,
 * with the rule, time and run of the turn-off, or Meta's words for its pause. The campaigns list
 * reads its page's states here.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import type { ObjectStateDto, StateReason } from '../../shared/ads';
import type { Database } from '../db/client';
import { ruleActivity, rules } from '../db/schema/index';
import { resultRows } from '../http/pagination';
import { campaignReason, lastSwitchOf } from './objectState';

export interface SwitchEntry {
  id: number;
  ruleId: number | null;
  ruleName: string | null;
  createdAt: Date;
  runId: number | null;
  reason: Record<string, string>;
}

export async function entriesById(db: Database, ids: number[]): Promise<Map<number, SwitchEntry>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({
      id: ruleActivity.id,
      ruleId: ruleActivity.ruleId,
      ruleName: rules.name,
      createdAt: ruleActivity.createdAt,
      runId: ruleActivity.runId,
      reason: ruleActivity.reason,
    })
    .from(ruleActivity)
    .leftJoin(rules, eq(rules.id, ruleActivity.ruleId))
    .where(inArray(ruleActivity.id, ids));
  return new Map(rows.map((r) => [r.id, r]));
}

const PLATFORM_WORDS: Record<string, string> = {
  ARCHIVED: 'Archived',
  DELETED: 'Deleted',
  IN_PROCESS: 'In process',
  WITH_ISSUES: 'With issues',
  PAUSED: 'Paused',
};

/** The API's state of an object from its reason, the entry of its last switch and its platform status. */
export function stateDto(
  reason: StateReason,
  entry: SwitchEntry | undefined,
  platformStatus: string | null = null,
): ObjectStateDto {
  const byRule = reason === 'rule' && entry;
  const byMeta = reason === 'meta' && entry;
  return {
    on: reason === 'on',
    reason,
    at: byRule || byMeta ? new Date(entry.createdAt).toISOString() : null,
    rule: byRule ? { id: entry.ruleId, name: entry.ruleName } : null,
    run_id: byRule ? entry.runId : null,
    entry_id: byRule || byMeta ? entry.id : null,
    detail: byMeta
      ? (entry.reason.Why ?? null)
      : reason === 'platform' && platformStatus
        ? (PLATFORM_WORDS[platformStatus] ?? platformStatus)
        : null,
  };
}

/** The state of each of these campaigns (synced rows; ids as digits), by campaign id. */
export async function campaignStatesOf(db: Database, campaignIds: string[]): Promise<Map<string, ObjectStateDto>> {
  const digits = campaignIds.filter((id) => /^\d{1,19}$/.test(id));
  if (!digits.length) return new Map();
  const rows = resultRows<{
    campaign_id: string;
    reason: StateReason;
    entry_id: number | null;
    status: string | null;
    effective_status: string | null;
  }>(
    await db.execute(sql`select c.campaign_id::text as campaign_id, cr.reason,
        case when cr.reason in ('rule', 'meta') then csw.entry_id end as entry_id, c.status, c.effective_status
      from campaigns c
      left join lateral ${lastSwitchOf(sql`c.campaign_id::text`, false)} as csw on true
      cross join lateral (select ${campaignReason('c', 'csw')} as reason) as cr
      where c.campaign_id = any(${`{${digits.join(',')}}`}::bigint[])`),
  );
  const entries = await entriesById(
    db,
    rows.flatMap((r) => (r.entry_id === null ? [] : [Number(r.entry_id)])),
  );
  return new Map(
    rows.map((r) => [
      r.campaign_id,
      stateDto(
        r.reason,
        r.entry_id === null ? undefined : entries.get(Number(r.entry_id)),
        platformStatusOf(r.status, r.effective_status),
      ),
    ]),
  );
}

/** The status that keeps a campaign from delivering: its effective status unless that is ACTIVE. */
export const platformStatusOf = (status: string | null, effective: string | null) =>
  effective && effective !== 'ACTIVE' ? effective : status;
