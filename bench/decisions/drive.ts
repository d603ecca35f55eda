/**
 * One run of the decisions bench: the agency (agency.ts) in a fresh simulator at a frozen clock,
 * one folder and one typical rule per ad account in a fresh database, and the engine's own
 * pipeline (`runSlot`) run for every rule at each slot while the bench moves the clock forward —
 * so late leads, settling days, pauses and revives all happen as they would live. What the engine
 * did is read back afterwards (tally.ts).
 */
import { GraphClient } from '../../server/adplatform/graphClient';
import { startSimulator, type Simulator } from '../../server/adplatform/simulator/index';
import { folders, metaAdAccounts, ruleItems, rules } from '../../server/db/schema/index';
import { runSlot } from '../../server/engine/pipeline/runBatch';
import {
  CARRIED_OVER_JUDGING,
  DEFAULT_REVIVE_HOURS,
  NEW_RULE_JUDGING,
  type RuleJudging,
} from '../../src/domain/judging';
import type { BenchDatabase } from '../databases';
import { engineOnClock } from '../engineOnClock';
import { buildAgency, type AgencyAd } from './agency';
import { measuredLag } from './lag';

export type Variant = 'naive' | 'lag_aware';

export interface DecisionsOptions {
  accounts: number;
  campaignsPerAccount: number;
  adsPerCampaign: number;
  days: number;
  /** The rules run every N simulated hours. */
  everyHours: number;
  /** Rules run at once within a slot. */
  concurrency: number;
  seed: number;
  /** The typical rule: spend with no leads above this, CPL above that. */
  spend: number;
  cpl: number;
}

export const HOUR_MS = 3_600_000;
/** The bench's first slot: a Monday, midnight UTC. */
export const BENCH_START = Date.parse('2026-03-02T00:00:00Z');
const everyHour = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => true));

export interface DrivenRun {
  variant: Variant;
  sim: Simulator;
  ads: AgencyAd[];
  ruleIds: number[];
  /** Each ad account's rule (`act_…` → rule id). */
  ruleOf: Map<string, number>;
  /** The lag allowance each lag-aware rule got (`act_…` → hours), from the account's measured lead lag. */
  lagHours: Map<string, number | null>;
  slots: number;
  runsFailed: number;
  firstErrors: string[];
  end: number;
  seconds: number;
}

export function judgingOf(variant: Variant, lagHours: number | null): RuleJudging {
  // Naive: as the engine judged before the judging settings, which a carried-over rule keeps.
  if (variant === 'naive') return CARRIED_OVER_JUDGING;
  return { ...NEW_RULE_JUDGING, lag_hours: lagHours, revive_hours: DEFAULT_REVIVE_HOURS };
}

export async function driveVariant(
  database: BenchDatabase,
  variant: Variant,
  options: DecisionsOptions,
  log: (line: string) => void,
): Promise<DrivenRun> {
  const began = performance.now();
  const db = database.handle.db;
  const sim = await startSimulator({
    seed: options.seed,
    start: BENCH_START,
    speed: 0,
    accounts: options.accounts,
    campaignsPerAccount: 0,
    adsPerCampaign: 0,
    scenarios: [],
  });
  const ads = buildAgency(sim.world, BENCH_START, options, options.seed);
  const client = new GraphClient({
    baseUrl: sim.url,
    apiVersion: 'v21.0',
    accessToken: 'simulator-token',
    sleep: async () => undefined,
    timeoutMs: 30_000,
  });
  let clock = new Date(BENCH_START);
  const lagHours =
    variant === 'lag_aware'
      ? await measuredLag(sim, client, BENCH_START, BENCH_START + options.days * 24 * HOUR_MS, log)
      : new Map(sim.world.accounts.map((a) => [`act_${a.accountId}`, null]));

  const ruleOf = new Map<string, number>();
  for (const account of sim.world.accounts) {
    const adAccountId = `act_${account.accountId}`;
    await db.insert(metaAdAccounts).values({
      adAccountId,
      accountName: account.name,
      timezoneName: account.timezone,
      currency: account.currency,
    });
    const [folder] = await db
      .insert(folders)
      .values({ name: account.name, clientType: 'EDM', plan: 'solo', adAccountId })
      .returning();
    const [rule] = await db
      .insert(rules)
      .values({
        folderId: folder!.id,
        name: 'Cut what does not convert',
        isActive: true,
        schedule: everyHour,
        alertSchedule: Array(24).fill(false),
        timezone: 'UTC',
        judging: judgingOf(variant, lagHours.get(adAccountId) ?? null),
      })
      .returning();
    await db.insert(ruleItems).values(
      [
        { type: 'rule_filter', name: 'campaign_name_contains', values: ['EDM'], isActive: true, position: 0 },
        { type: 'rule_filter', name: 'campaign_name_not_contains', values: [], isActive: false, position: 1 },
        {
          type: 'rule_task',
          name: 'spend_cpl_no_leads',
          values: { spend: String(options.spend) },
          isActive: true,
          position: 2,
        },
        { type: 'rule_task', name: 'trigger_cpl', values: { cpl: String(options.cpl) }, isActive: true, position: 3 },
      ].map((item) => ({ ...item, ruleId: rule!.id })),
    );
    ruleOf.set(adAccountId, rule!.id);
  }

  const ctx = engineOnClock(db, client, () => clock, 100_000);
  const ruleIds = [...ruleOf.values()];
  const slots = Math.floor((options.days * 24) / options.everyHours);
  let runsFailed = 0;
  const firstErrors: string[] = [];
  for (let s = 0; s < slots; s += 1) {
    const slot = new Date(BENCH_START + s * options.everyHours * HOUR_MS);
    clock = new Date(slot.getTime() + 30_000);
    sim.clock.set(clock.getTime());
    const queue = [...ruleIds];
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        for (let ruleId = queue.shift(); ruleId !== undefined; ruleId = queue.shift()) {
          try {
            await runSlot(ctx, { ruleId, slot, kind: 'run' });
          } catch (error) {
            runsFailed += 1;
            if (firstErrors.length < 5) firstErrors.push(error instanceof Error ? error.message : String(error));
          }
        }
      }),
    );
    if (s % Math.max(1, Math.round(24 / options.everyHours)) === 0)
      log(`  ${variant}: day ${Math.floor((s * options.everyHours) / 24) + 1} of ${options.days}`);
  }
  const end = BENCH_START + slots * options.everyHours * HOUR_MS;
  return {
    variant,
    sim,
    ads,
    ruleIds,
    ruleOf,
    lagHours,
    slots,
    runsFailed,
    firstErrors,
    end,
    seconds: Math.round((performance.now() - began) / 100) / 10,
  };
}
