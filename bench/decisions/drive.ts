/**
 * One run of the decisions bench: the agency (agency.ts) in a fresh simulator at a frozen clock,
 * one folder and one typical rule per ad account in a fresh database, and the engine's own
 * pipeline (`runSlot`) run for every rule at each slot while the bench moves the clock forward —
 * so late leads, settling days, pauses and revives all happen as they would live. What the engine
 * did is read back afterwards (tally.ts).
 */
import type { Simulator } from '../../server/adplatform/simulator/index';
import { CARRIED_OVER_JUDGING, DEFAULT_REVIVE_HOURS, NEW_RULE_JUDGING, type RuleJudging } from '../../shared/judging';
import type { BenchDatabase } from '../databases';
import { engineOnClock } from '../engineOnClock';
import { buildAgency, type AgencyAd } from './agency';
import { frozenSimulator, runEveryRule, seedFolderRule } from './benchAgency';
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
  const { sim, client } = await frozenSimulator(options.seed, BENCH_START, options.accounts);
  const ads = buildAgency(sim.world, BENCH_START, options, options.seed);
  let clock = new Date(BENCH_START);
  const lagHours =
    variant === 'lag_aware'
      ? await measuredLag(sim, client, BENCH_START, BENCH_START + options.days * 24 * HOUR_MS, log)
      : new Map(sim.world.accounts.map((a) => [`act_${a.accountId}`, null]));

  const ruleOf = new Map<string, number>();
  for (const account of sim.world.accounts) {
    const adAccountId = `act_${account.accountId}`;
    const ruleId = await seedFolderRule(db, account, {
      name: 'Cut what does not convert',
      judging: judgingOf(variant, lagHours.get(adAccountId) ?? null),
      tasks: [
        { name: 'spend_cpl_no_leads', values: { spend: String(options.spend) } },
        { name: 'trigger_cpl', values: { cpl: String(options.cpl) } },
      ],
    });
    ruleOf.set(adAccountId, ruleId);
  }

  const ctx = engineOnClock(db, client, () => clock, 100_000);
  const ruleIds = [...ruleOf.values()];
  const slots = Math.floor((options.days * 24) / options.everyHours);
  const failures = { count: 0, first: [] as string[] };
  for (let s = 0; s < slots; s += 1) {
    const slot = new Date(BENCH_START + s * options.everyHours * HOUR_MS);
    clock = new Date(slot.getTime() + 30_000);
    sim.clock.set(clock.getTime());
    await runEveryRule(ctx, ruleIds, slot, options.concurrency, failures);
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
    runsFailed: failures.count,
    firstErrors: failures.first,
    end,
    seconds: Math.round((performance.now() - began) / 100) / 10,
  };
}
