/**
 * The engine bench's data: one folder per simulated ad account, and N rules per folder that are all
 * due in the same UTC hour (only that hour of that weekday switched on), each turning off the ads
 * of "EDM" campaigns whose cost per lead is over its threshold. Thresholds differ per rule, so the
 * rules of one account act on different ads of the same snapshot.
 */
import type { Database } from '../../server/db/client';
import { folders, metaAdAccounts, ruleItems, rules } from '../../server/db/schema/index';

export interface BenchAccount {
  /** 'act_…' as folders store it. */
  adAccountId: string;
  name: string;
}

const CHUNK = 1000;

function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Turn-offs when CPL is above $20, $25, … $65: the lower the threshold, the more ads it catches. */
const thresholdOf = (index: number) => String(20 + 5 * (index % 10));

export async function seedEngineBench(
  db: Database,
  accounts: BenchAccount[],
  rulesPerAccount: number,
  slot: Date,
): Promise<{ folders: number; rules: number }> {
  for (const part of chunks(accounts)) {
    await db
      .insert(metaAdAccounts)
      .values(part.map((a) => ({ adAccountId: a.adAccountId, accountName: a.name, timezoneName: 'UTC' })));
  }
  const folderIds: number[] = [];
  for (const part of chunks(accounts)) {
    const rows = await db
      .insert(folders)
      .values(part.map((a) => ({ name: a.name, clientType: 'EDM', plan: 'solo', adAccountId: a.adAccountId })))
      .returning({ id: folders.id });
    folderIds.push(...rows.map((r) => r.id));
  }
  const schedule = Array.from({ length: 7 }, (_, day) =>
    Array.from({ length: 24 }, (_, hour) => day === slot.getUTCDay() && hour === slot.getUTCHours()),
  );
  const alertSchedule = Array.from({ length: 24 }, () => false);
  const wanted = folderIds.flatMap((folderId, f) =>
    Array.from({ length: rulesPerAccount }, (_, r) => ({
      folderId,
      name: `CPL over $${thresholdOf(r)} · ${accounts[f]!.name}`,
      isActive: true,
      schedule,
      alertSchedule,
      timezone: 'UTC',
      // Changed long before the slot: the slot counts (see scheduler.ts), nothing is caught up.
      updatedAt: new Date(slot.getTime() - 7 * 24 * 3_600_000),
      threshold: thresholdOf(r),
    })),
  );
  let ruleCount = 0;
  for (const part of chunks(wanted)) {
    const rows = await db
      .insert(rules)
      .values(part.map(({ threshold: _t, ...rule }) => rule))
      .returning({ id: rules.id });
    const items = rows.flatMap((row, i) => [
      {
        ruleId: row.id,
        type: 'rule_filter',
        name: 'campaign_name_contains',
        values: ['EDM'],
        isActive: true,
        position: 0,
      },
      {
        ruleId: row.id,
        type: 'rule_task',
        name: 'trigger_cpl',
        values: { cpl: part[i]!.threshold },
        isActive: true,
        position: 1,
      },
    ]);
    for (const itemPart of chunks(items)) await db.insert(ruleItems).values(itemPart);
    ruleCount += rows.length;
  }
  return { folders: folderIds.length, rules: ruleCount };
}
