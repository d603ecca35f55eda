/**
 * Meta pausing an object itself: the Advantage+ shopping and app campaigns it paused at v26.0 (no
 * longer created or updated since 19 May 2026), or an ad or campaign stopped for a policy issue.
 * The object's status becomes PAUSED at that moment and, until someone turns it back on, Graph's
 * `issues_info` names why (error codes are the simulator's own). Driven by the admin API
 * (`POST /__sim/objects/{id}/meta_pause {reason}`) or `Simulator.pauseByMeta`.
 */
import type { MetaIssue, SimAd, SimAdSet, SimCampaign, StatusEvent, World } from './world';

export const META_PAUSE_REASONS = {
  advantage_plus: {
    error_code: 3_858_001,
    error_summary: 'Paused by Meta: Advantage+ shopping and app campaigns can no longer run',
    error_message:
      'Advantage+ shopping and app campaigns can no longer be created or updated since 19 May 2026; Meta paused the remaining ones.',
    error_type: 'ADVANTAGE_PLUS_DEPRECATION',
  },
  policy: {
    error_code: 3_858_002,
    error_summary: 'Paused by Meta: it does not follow the Advertising Standards',
    error_message: 'Meta paused this object after a policy review. Request another review in Account Quality.',
    error_type: 'POLICY',
  },
} as const satisfies Record<string, MetaIssue>;

export type MetaPauseReason = keyof typeof META_PAUSE_REASONS;

export const isMetaPauseReason = (value: unknown): value is MetaPauseReason =>
  typeof value === 'string' && value in META_PAUSE_REASONS;

type Pausable = SimCampaign | SimAdSet | SimAd;

function find(world: World, id: string): Pausable | undefined {
  const ad = world.ads.get(id);
  return world.campaigns.get(id) ?? world.adsets.get(id) ?? (ad && !ad.deleted ? ad : undefined);
}

/** The status event in force at `now`. */
function eventAt(log: readonly StatusEvent[], now: number): StatusEvent {
  let current = log[0]!;
  for (const event of log) if (event.at <= now) current = event;
  return current;
}

/** Pauses the object as Meta does, now; answers its id and the issue Graph will report. */
export function pauseByMeta(world: World, id: string, reason: MetaPauseReason, now: number) {
  const node = find(world, id);
  if (!node) throw new Error(`The simulator has no campaign, ad set or ad ${id}`);
  const log = node.statusLog;
  while (log.length > 1 && log.at(-1)!.at > now) log.pop();
  const issue = META_PAUSE_REASONS[reason];
  log.push({ at: Math.max(now, log.at(-1)!.at), status: 'PAUSED', byMeta: issue });
  world.revision += 1;
  return { id, status: 'PAUSED', issues_info: issuesInfo(node, now) };
}

/** Graph's `issues_info` of an object: Meta's pause while it lasts; absent (as Graph leaves it out) otherwise. */
export function issuesInfo(node: Pausable, now: number) {
  const issue = eventAt(node.statusLog, now).byMeta;
  if (!issue) return undefined;
  return [{ ...issue, level: 'adsetId' in node ? 'AD' : 'campaignId' in node ? 'AD_SET' : 'CAMPAIGN' }];
}
