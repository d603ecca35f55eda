/**
 * What one run of the decisions bench did, judged by the simulator's truth:
 *
 * - pauses: the rules' turn-offs that were made (done `turn_off_ad` entries);
 * - false pauses: those whose ad's settled numbers at the moment of the pause — everything that had
 *   happened up to then, every late lead and settling arrived — would not have crossed any of the
 *   rule's tasks (the engine's own evaluator decides, on those numbers, with no judging settings);
 * - dud spend stopped: what the true duds would have spent in the benched period had nobody paused
 *   them, less what they spent;
 * - late-converter leads lost: the leads the late converters would have had in the period (settled)
 *   had nobody paused them, less those they had;
 * - revives (done `revive_ad` entries) and flaps (`flapping` alerts: an object off and on more than
 *   twice in 24 hours), and pauses after a revive (the same ad turned off again).
 */
import { and, eq, inArray } from 'drizzle-orm';
import { adTotals, subtract, type Totals } from '../../server/adplatform/simulator/delivery';
import type { Database } from '../../server/db/client';
import { ruleActivity } from '../../server/db/schema/index';
import { evaluate, type AccountSnapshot } from '../../server/judgement/evaluate';
import { loadEngineRules, type LoadedEngineRule } from '../../server/run/rulesSource';
import { CARRIED_OVER_JUDGING } from '../../shared/judging';
import type { AdKind } from './agency';
import { BENCH_START, type DrivenRun } from './drive';

export interface DecisionCounts {
  pauses: number;
  false_pauses: number;
  false_pause_rate: number;
  dud_spend_stopped: number;
  late_converter_leads_lost: number;
  revives: number;
  flaps: number;
  /** Turn-offs of an ad this run had revived before. */
  paused_again_after_revive: number;
  /** Pauses and false pauses per kind of ad. */
  by_kind: Record<AdKind, { ads: number; paused: number; false_pauses: number; revived: number }>;
  /** What the true duds would have spent in the period, unpaused (the base of dud_spend_stopped). */
  dud_spend_unpaused: number;
  late_converter_leads_unpaused: number;
  median_hours_to_pause_dud: number | null;
  runs: number;
  runs_failed: number;
  seconds: number;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const leadsOf = (t: Totals) => t.onsiteLeads + t.websiteLeads;

/** The rule as it judged before the judging settings: the truth asks only whether the numbers cross. */
function plainRule(rule: LoadedEngineRule): LoadedEngineRule {
  return { ...rule, judging: CARRIED_OVER_JUDGING };
}

/** Would the ad's settled numbers at `at` have crossed one of the rule's tasks? */
function settledCrosses(run: DrivenRun, rule: LoadedEngineRule, adId: string, at: Date): boolean {
  const ad = run.sim.world.ads.get(adId)!;
  const campaign = run.sim.world.campaigns.get(ad.campaignId)!;
  const settled = run.sim.truth(adId, at).settled;
  const on = { status: 'ACTIVE', effective_status: 'ACTIVE' } as const;
  const snapshot: AccountSnapshot = {
    currency: 'USD',
    campaigns: [{ id: campaign.id, name: campaign.name, ...on }],
    ads: [{ id: ad.id, name: ad.name, campaign_id: campaign.id, adset_id: ad.adsetId, ...on }],
    insights: [{ ...settled, ad_id: ad.id, ad_name: ad.name, campaign_id: campaign.id, campaign_name: campaign.name }],
  } as AccountSnapshot;
  return evaluate(plainRule(rule), snapshot, { now: at }).actions.length > 0;
}

/** An ad's totals over the benched period as it ran, and as it would have run had nobody paused it. */
function periodTotals(run: DrivenRun, adId: string): { actual: Totals; unpaused: Totals } {
  const ad = run.sim.world.ads.get(adId)!;
  const adset = run.sim.world.adsets.get(ad.adsetId)!;
  const campaign = run.sim.world.campaigns.get(ad.campaignId)!;
  const actual = adTotals(ad, adset, campaign, BENCH_START, run.end);
  const unpaused = adTotals({ ...ad, statusLog: [ad.statusLog[0]!] }, adset, campaign, BENCH_START, run.end);
  return { actual, unpaused };
}

export async function tally(db: Database, run: DrivenRun): Promise<DecisionCounts> {
  const rulesById = await loadEngineRules(db, run.ruleIds);
  const entries = await db
    .select({
      action: ruleActivity.action,
      adId: ruleActivity.adId,
      ruleId: ruleActivity.ruleId,
      at: ruleActivity.createdAt,
    })
    .from(ruleActivity)
    .where(and(inArray(ruleActivity.action, ['turn_off_ad', 'revive_ad', 'flapping']), eq(ruleActivity.state, 'done')))
    .orderBy(ruleActivity.createdAt, ruleActivity.id);
  const kindOf = new Map(run.ads.map((a) => [a.id, a.kind]));
  const byKind = Object.fromEntries(
    (['true_dud', 'late_converter', 'steady_converter'] as AdKind[]).map((k) => [
      k,
      { ads: run.ads.filter((a) => a.kind === k).length, paused: 0, false_pauses: 0, revived: 0 },
    ]),
  ) as DecisionCounts['by_kind'];

  let pauses = 0;
  let falsePauses = 0;
  let revives = 0;
  let flaps = 0;
  let pausedAgain = 0;
  const revived = new Set<string>();
  const dudPausedAfter: number[] = [];
  for (const entry of entries) {
    const kind = kindOf.get(entry.adId ?? '');
    if (entry.action === 'flapping') flaps += 1;
    else if (entry.action === 'revive_ad') {
      revives += 1;
      revived.add(entry.adId!);
      if (kind) byKind[kind].revived += 1;
    } else {
      pauses += 1;
      if (revived.has(entry.adId!)) pausedAgain += 1;
      const isFalse = !settledCrosses(run, rulesById.get(entry.ruleId!)!, entry.adId!, entry.at);
      if (isFalse) falsePauses += 1;
      if (kind) {
        byKind[kind].paused += 1;
        if (isFalse) byKind[kind].false_pauses += 1;
      }
      if (kind === 'true_dud') {
        const campaign = run.sim.world.campaigns.get(run.sim.world.ads.get(entry.adId!)!.campaignId)!;
        dudPausedAfter.push((entry.at.getTime() - campaign.startTime) / 3_600_000);
      }
    }
  }

  let dudStopped = 0;
  let dudUnpaused = 0;
  let leadsLost = 0;
  let lateLeadsUnpaused = 0;
  for (const ad of run.ads) {
    if (ad.kind === 'steady_converter') continue;
    const { actual, unpaused } = periodTotals(run, ad.id);
    const lost = subtract(unpaused, actual);
    if (ad.kind === 'true_dud') {
      dudStopped += lost.spend;
      dudUnpaused += unpaused.spend;
    } else {
      leadsLost += leadsOf(lost);
      lateLeadsUnpaused += leadsOf(unpaused);
    }
  }
  dudPausedAfter.sort((a, b) => a - b);
  return {
    pauses,
    false_pauses: falsePauses,
    false_pause_rate: pauses ? Math.round((falsePauses / pauses) * 10_000) / 10_000 : 0,
    dud_spend_stopped: round2(dudStopped),
    late_converter_leads_lost: leadsLost,
    revives,
    flaps,
    paused_again_after_revive: pausedAgain,
    by_kind: byKind,
    dud_spend_unpaused: round2(dudUnpaused),
    late_converter_leads_unpaused: lateLeadsUnpaused,
    median_hours_to_pause_dud: dudPausedAfter.length
      ? Math.round(dudPausedAfter[Math.floor(dudPausedAfter.length / 2)]! * 10) / 10
      : null,
    runs: run.slots * run.ruleIds.length,
    runs_failed: run.runsFailed,
    seconds: run.seconds,
  };
}
