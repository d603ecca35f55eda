/**
 * What the decisions benches share: a Graph simulator at a frozen clock with no world of its own
 * (each bench builds its agency into it), the product's Graph client for it, one folder and rule per
 * ad account, and a slot run of every rule.
 */
import { GraphClient } from '../../server/adplatform/graphClient';
import type { SimAccount } from '../../server/adplatform/simulator/world';
import { startSimulator, type Simulator } from '../../server/adplatform/simulator/index';
import type { Database } from '../../server/db/client';
import { folders, metaAdAccounts, ruleItems, rules } from '../../server/db/schema/index';
import type { EngineContext } from '../../server/run/pipeline/context';
import { runSlot } from '../../server/run/pipeline/runBatch';
import type { RuleJudging } from '../../shared/judging';

/** The version the benches call: live on their simulated clock (spring 2026). */
const BENCH_API_VERSION = 'v25.0';
const everyHour = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => true));

export async function frozenSimulator(seed: number, start: number, accounts: number) {
  const sim: Simulator = await startSimulator({
    seed,
    start,
    speed: 0,
    accounts,
    campaignsPerAccount: 0,
    adsPerCampaign: 0,
    scenarios: [],
  });
  const client = new GraphClient({
    baseUrl: sim.url,
    apiVersion: BENCH_API_VERSION,
    accessToken: 'simulator-token',
    sleep: async () => undefined,
    timeoutMs: 30_000,
  });
  return { sim, client };
}

export interface FolderRule {
  name: string;
  judging: RuleJudging;
  tasks: { name: string; values: Record<string, string> }[];
  /** Stored on the folder as they are (the benches' Demio keys). */
  demioCredentials?: string;
}

/**
 * The account, its folder and one rule on every hour (UTC) for its EDM campaigns with the tasks
 * given, all active; answers the rule's id.
 */
export async function seedFolderRule(db: Database, account: SimAccount, rule: FolderRule): Promise<number> {
  const adAccountId = `act_${account.accountId}`;
  await db.insert(metaAdAccounts).values({
    adAccountId,
    accountName: account.name,
    timezoneName: account.timezone,
    currency: account.currency,
  });
  const [folder] = await db
    .insert(folders)
    .values({
      name: account.name,
      clientType: 'EDM',
      plan: 'solo',
      adAccountId,
      demioCredentials: rule.demioCredentials ?? null,
    })
    .returning();
  const [created] = await db
    .insert(rules)
    .values({
      folderId: folder!.id,
      name: rule.name,
      isActive: true,
      schedule: everyHour,
      alertSchedule: Array(24).fill(false),
      timezone: 'UTC',
      judging: rule.judging,
    })
    .returning();
  await db
    .insert(ruleItems)
    .values(
      [
        { type: 'rule_filter', name: 'campaign_name_contains', values: ['EDM'], isActive: true, position: 0 },
        { type: 'rule_filter', name: 'campaign_name_not_contains', values: [], isActive: false, position: 1 },
        ...rule.tasks.map((task, i) => ({ type: 'rule_task', ...task, isActive: true, position: 2 + i })),
      ].map((item) => ({ ...item, ruleId: created!.id })),
    );
  return created!.id;
}

/** Runs every rule's slot, `concurrency` at a time; failures are counted, the first five kept. */
export async function runEveryRule(
  ctx: EngineContext,
  ruleIds: readonly number[],
  slot: Date,
  concurrency: number,
  failures: { count: number; first: string[] },
): Promise<void> {
  const queue = [...ruleIds];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let ruleId = queue.shift(); ruleId !== undefined; ruleId = queue.shift()) {
        try {
          await runSlot(ctx, { ruleId, slot, kind: 'run' });
        } catch (error) {
          failures.count += 1;
          if (failures.first.length < 5) failures.first.push(error instanceof Error ? error.message : String(error));
        }
      }
    }),
  );
}
