/**
 * One run of the quality bench: the agency (agency.ts) in a fresh Graph simulator at a frozen clock
 * with the Demio simulator on its world, one folder (with its Demio key) and one rule per ad account
 * in a fresh database, and at each slot the product's own outcome sync (leads from Graph's lead
 * retrieval, participants from Demio, both paced on the simulated clock) then the engine's pipeline
 * (`runSlot`) for every rule, while the bench moves the clock forward. What the engine did is read
 * back afterwards (tally.ts).
 */
import type { Simulator } from '../../../server/adplatform/simulator/index';
import { campaigns } from '../../../server/db/schema/index';
import { createOutcomeStore } from '../../../server/outcomes/store';
import { OutcomeSync } from '../../../server/outcomes/sync';
import { DemioClient } from '../../../server/webinar/demioClient';
import { DEMIO_ACCOUNT_LIMITS, DemioPacer } from '../../../server/webinar/pacer';
import { simulatedKeys, startDemioSimulator, type DemioSimulator } from '../../../server/webinar/simulator/index';
import type { DemioCredentials } from '../../../shared/folders';
import { NEW_RULE_JUDGING } from '../../../shared/judging';
import type { BenchDatabase } from '../../databases';
import { engineOnClock } from '../../engineOnClock';
import { frozenSimulator, runEveryRule, seedFolderRule } from '../benchAgency';
import { buildQualityAgency, type QualityAd } from './agency';

export type QualityVariant = 'cpl_only' | 'show_up_aware';

export interface QualityOptions {
  accounts: number;
  campaignsPerAccount: number;
  adsPerCampaign: number;
  days: number;
  /** The rules run (and the outcome sync reads) every N simulated hours. */
  everyHours: number;
  concurrency: number;
  seed: number;
  /** The CPL-only rule's threshold. */
  cpl: number;
  /**
   * The show-up-aware rule's threshold: the CPL one at the agency's mean show-up rate (equal
   * strictness: an ad whose leads attend as often as the average one is judged alike by both).
   */
  costPerAttendee: number;
  minRegistrations: number;
}

export const HOUR_MS = 3_600_000;
/** The bench's first slot: a Sunday, midnight UTC. */
export const QUALITY_START = Date.parse('2026-03-01T00:00:00Z');

export interface QualityRun {
  variant: QualityVariant;
  sim: Simulator;
  demio: DemioSimulator;
  ads: QualityAd[];
  ruleIds: number[];
  slots: number;
  runsFailed: number;
  syncFailures: number;
  firstErrors: string[];
  end: number;
  seconds: number;
}

function tasksOf(variant: QualityVariant, o: QualityOptions) {
  if (variant === 'cpl_only') return [{ name: 'trigger_cpl', values: { cpl: String(o.cpl) } }];
  return [
    {
      name: 'cost_per_attendee',
      values: { cost: String(o.costPerAttendee), min_registrations: String(o.minRegistrations) },
    },
  ];
}

export async function driveQualityVariant(
  database: BenchDatabase,
  variant: QualityVariant,
  options: QualityOptions,
  log: (line: string) => void,
): Promise<QualityRun> {
  const began = performance.now();
  const db = database.handle.db;
  const { sim, client: graph } = await frozenSimulator(options.seed, QUALITY_START, options.accounts);
  const ads = buildQualityAgency(sim.world, QUALITY_START, options, options.seed);
  // Built after the agency: its events are the dates the agency's campaigns advertise. Demio's
  // limits (180 calls a minute, 5,000 a day) count on the simulated clock, as the client's pacer does.
  const demio = await startDemioSimulator({ world: sim.world, clock: sim.clock, limitsNow: () => sim.clock.now() });
  let clock = new Date(QUALITY_START);
  const pacers = new Map<string, DemioPacer>();
  const sync = new OutcomeSync({
    db,
    graph,
    demioFor: ({ api_key, api_secret }) => {
      if (!pacers.has(api_key)) pacers.set(api_key, new DemioPacer(DEMIO_ACCOUNT_LIMITS, () => clock.getTime()));
      return new DemioClient({
        baseUrl: demio.url,
        apiKey: api_key,
        apiSecret: api_secret,
        pacer: pacers.get(api_key)!,
        sleep: async () => undefined,
      });
    },
    // The bench stores the simulator's keys as they are: the cipher is not what it measures.
    decrypt: (stored) => JSON.parse(stored) as DemioCredentials,
    store: createOutcomeStore(db),
    now: () => clock,
  });

  const ruleIds: number[] = [];
  for (const account of sim.world.accounts) {
    const keys = simulatedKeys(account.accountId);
    const ruleId = await seedFolderRule(db, account, {
      name: variant === 'cpl_only' ? 'Cut dear leads' : 'Cut dear seats',
      judging: NEW_RULE_JUDGING,
      tasks: tasksOf(variant, options),
      demioCredentials: JSON.stringify({ api_key: keys.apiKey, api_secret: keys.apiSecret }),
    });
    const accountCampaigns = [...sim.world.campaigns.values()].filter((c) => c.accountId === account.accountId);
    await db.insert(campaigns).values(
      accountCampaigns.map((c) => ({
        campaignId: BigInt(c.id),
        adAccountId: `act_${account.accountId}`,
        campaignName: c.name,
      })),
    );
    ruleIds.push(ruleId);
  }

  const ctx = { ...engineOnClock(db, graph, () => clock, 100_000), quality: createOutcomeStore(db) };
  const slots = Math.floor((options.days * 24) / options.everyHours);
  const failures = { count: 0, first: [] as string[] };
  let syncFailures = 0;
  for (let s = 0; s < slots; s += 1) {
    const slot = new Date(QUALITY_START + s * options.everyHours * HOUR_MS);
    clock = new Date(slot.getTime() + 30_000);
    sim.clock.set(clock.getTime());
    // Only rules that judge show-ups need them read (the tally takes both variants' show-ups from the simulator).
    if (variant === 'show_up_aware') {
      const report = await sync.syncAll();
      syncFailures += report.failures.length;
      for (const failure of report.failures)
        if (failures.first.length < 5) failures.first.push(`sync ${failure.adAccountId}: ${failure.error}`);
    }
    await runEveryRule(ctx, ruleIds, slot, options.concurrency, failures);
    if (s % Math.max(1, Math.round(24 / options.everyHours)) === 0)
      log(`  ${variant}: day ${Math.floor((s * options.everyHours) / 24) + 1} of ${options.days}`);
  }
  return {
    variant,
    sim,
    demio,
    ads,
    ruleIds,
    slots,
    runsFailed: failures.count,
    syncFailures,
    firstErrors: failures.first,
    end: QUALITY_START + slots * options.everyHours * HOUR_MS,
    seconds: Math.round((performance.now() - began) / 100) / 10,
  };
}
