/**
 * Revive (pure): which ads this rule turned off should be turned back on. An ad qualifies when the
 * rule turned it off within its revive window, it is still off (nobody turned it on since), its
 * campaign delivers, and its numbers now cross none of the rule's active ad tasks (the lag allowance
 * applies as in a run) — late leads arrived. The reason names the leads that arrived and the new CPL.
 * An ad an outcome task turned off (cost per attendee, show-up rate, cost per stage) comes back when
 * what its leads became has grown since (more attendees, more leads at the stage) and no task crosses.
 */
import { isOn } from './deliveryStatus';
import { count, money } from './format';
import {
  activeAdTaskSets,
  activeThresholds,
  hasAdTasks,
  judgeAdTasks,
  viewOf,
  type AccountSnapshot,
  type EvaluateOptions,
} from './evaluate';
import type { EngineRule } from './ruleShape';
import type { AdQuality, LeadStage } from '../outcomes/quality';

/** A turn-off of this rule that is still the object's last switch. */
export interface PausedByRule {
  /** The turn-off's activity entry. */
  entryId: number;
  objectId: string;
  at: Date;
  /** The turn-off entry's reason (its Leads, when it names them). */
  reason: Record<string, string>;
}

export interface ReviveDecision {
  entryId: number;
  objectId: string;
  campaignId: string;
  reason: Record<string, string>;
}

const HOUR_MS = 3_600_000;

/** '1,234' → 1234; null when the reason does not say. */
function leadsIn(reason: Record<string, string>): number | null {
  const text = reason.Leads ?? reason['Website leads'];
  if (text === undefined) return null;
  const n = Number(text.split(' ')[0]!.replaceAll(',', ''));
  return Number.isFinite(n) ? n : null;
}

/** The first number of a reason's text ('12 of 40 registrants attended' → 12); null when none. */
function firstNumber(text: string | undefined): number | null {
  const match = text?.match(/\d[\d,]*(\.\d+)?/);
  return match ? Number(match[0].replaceAll(',', '')) : null;
}

/**
 * For a turn-off by an outcome task: what arrived since (attendees, leads at the stage), or null
 * when nothing did (no revive); undefined when the turn-off was not an outcome task's.
 */
function outcomeGrown(
  reason: Record<string, string>,
  quality: AdQuality | undefined,
): Record<string, string> | null | undefined {
  if (reason['Show-up'] !== undefined) {
    const before = firstNumber(reason['Show-up']);
    if (before === null || !quality || quality.attendees <= before) return null;
    return {
      'Attendees arrived': `${count(quality.attendees - before)} since the turn-off (${count(before)} → ${count(quality.attendees)})`,
      'Show-up': `${count(quality.attendees)} of ${count(quality.settledRegistrations)} registrants attended`,
    };
  }
  if (reason.Reached !== undefined) {
    const before = firstNumber(reason.Reached);
    const stage = reason.Reached.split(' ')[1] as LeadStage | undefined;
    const now = stage && quality?.stages[stage]?.reached;
    if (before === null || !now || now <= before) return null;
    return {
      'Leads at the stage': `${count(now - before)} more ${stage} since the turn-off (${count(before)} → ${count(now)})`,
    };
  }
  return undefined;
}

export function reviveDecisions(
  rule: EngineRule,
  snapshot: AccountSnapshot,
  paused: PausedByRule[],
  options: EvaluateOptions = {},
): ReviveDecision[] {
  const view = viewOf(rule, snapshot, options);
  const { judging, now } = view;
  if (judging.revive_hours === null || !paused.length) return [];
  const thresholds = activeThresholds(rule, []);
  const adTasks = activeAdTaskSets(thresholds);
  if (!hasAdTasks(adTasks)) return [];
  const ads = new Map(snapshot.ads.map((a) => [a.id, a]));
  const decisions: ReviveDecision[] = [];
  for (const p of paused) {
    if (now.getTime() - p.at.getTime() > judging.revive_hours * HOUR_MS) continue;
    const ad = ads.get(p.objectId);
    // Gone, turned back on since, or its campaign is off: nothing to revive.
    if (!ad || ad.status === 'ACTIVE') continue;
    const campaign = view.campaignsById.get(ad.campaign_id);
    if (!campaign || !isOn(campaign)) continue;
    const metrics = view.metricsOf(ad.id);
    if (!metrics) continue;
    const facts = view.factsOf(ad.id, metrics.impressions);
    const quality = view.qualityOf(ad.id);
    const { acting } = judgeAdTasks(
      adTasks,
      thresholds,
      { metrics, facts, quality, tooEarly: false },
      view,
      snapshot.currency,
    );
    if (acting) continue;
    const outcome = outcomeGrown(p.reason, quality);
    if (outcome !== undefined) {
      if (outcome === null) continue;
      decisions.push({
        entryId: p.entryId,
        objectId: ad.id,
        campaignId: ad.campaign_id,
        reason: {
          Revived: 'what its leads became no longer crosses the rule’s tasks',
          ...outcome,
          CPL: metrics.leads > 0 ? money(metrics.spend / metrics.leads, snapshot.currency) : '—',
          Campaign: view.campaignName(ad.campaign_id),
          Ad: ad.name,
        },
      });
      continue;
    }
    const before = leadsIn(p.reason);
    // Only late leads revive: numbers that merely read differently (a glitch, a settling day, a
    // threshold edited since) do not — nor, when the turn-off did not name its leads, none at all.
    if (before === null ? metrics.leads === 0 : metrics.leads <= before) continue;
    const arrived =
      before === null
        ? `${count(metrics.leads)} in all`
        : `${count(metrics.leads - before)} since the turn-off (${count(before)} → ${count(metrics.leads)})`;
    decisions.push({
      entryId: p.entryId,
      objectId: ad.id,
      campaignId: ad.campaign_id,
      reason: {
        Revived: 'its numbers no longer cross the rule’s tasks',
        'Leads arrived': arrived,
        CPL: metrics.leads > 0 ? money(metrics.spend / metrics.leads, snapshot.currency) : '—',
        Spend: money(metrics.spend, snapshot.currency),
        Campaign: view.campaignName(ad.campaign_id),
        Ad: ad.name,
      },
    });
  }
  return decisions;
}
