/**
 * Objects' on/off history: the turn-offs the engine made (done, from rule_activity), the pauses
 * Meta made itself (paused_by_meta, metaPauses.ts), the turn-ons (undo, revive) and the turn-ons
 * made by hand on the platform, noticed when a snapshot shows an object on again after the last
 * turn-off (object_switches, recorded once per turn-off).
 * The cool-down reads each object's last turn-on; the flapping alert counts the switches of a day.
 */
import { and, gte, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { objectSwitches, ruleActivity } from '../db/schema/index';
import type { ObjectHistory } from '../judgement/lateData';

export interface Switch {
  objectId: string;
  turned: 'off' | 'on';
  at: Date;
  /** The rule_activity entry of an engine switch (its turn-off, for a platform turn-on: the one it follows). */
  entryId: number;
  source: 'rule' | 'undo' | 'revive' | 'platform' | 'meta';
  ruleId: number | null;
}

const OFF_ACTIONS = ['turn_off_ad', 'turn_off_campaign', 'paused_by_meta'];
const ON_ACTIONS: Record<string, Switch['source']> = {
  turn_on_ad: 'undo',
  turn_on_campaign: 'undo',
  revive_ad: 'revive',
  rule_turn_on_ad: 'rule',
  rule_turn_on_campaign: 'rule',
};

/** Every switch of these objects since `since`, oldest first. */
export async function switchesOf(db: Database, objectIds: string[], since: Date): Promise<Switch[]> {
  if (!objectIds.length) return [];
  const [entries, platform] = await Promise.all([
    db
      .select({
        id: ruleActivity.id,
        adId: ruleActivity.adId,
        action: ruleActivity.action,
        at: ruleActivity.createdAt,
        ruleId: ruleActivity.ruleId,
      })
      .from(ruleActivity)
      .where(
        and(
          inArray(ruleActivity.adId, objectIds),
          inArray(ruleActivity.action, [...OFF_ACTIONS, ...Object.keys(ON_ACTIONS)]),
          sql`${ruleActivity.state} = 'done'`,
          gte(ruleActivity.createdAt, since),
        ),
      ),
    db
      .select()
      .from(objectSwitches)
      .where(and(inArray(objectSwitches.objectId, objectIds), gte(objectSwitches.at, since))),
  ]);
  const switches: Switch[] = [
    ...entries.map((e) => ({
      objectId: e.adId!,
      turned: OFF_ACTIONS.includes(e.action) ? ('off' as const) : ('on' as const),
      at: e.at,
      entryId: e.id,
      source: ON_ACTIONS[e.action] ?? (e.action === 'paused_by_meta' ? ('meta' as const) : ('rule' as const)),
      ruleId: e.ruleId,
    })),
    ...platform.map((p) => ({
      objectId: p.objectId,
      turned: p.turned as Switch['turned'],
      at: p.at,
      entryId: p.followsId ?? 0,
      source: 'platform' as const,
      ruleId: p.ruleId,
    })),
  ];
  return switches.sort((a, b) => a.at.getTime() - b.at.getTime() || (a.turned === 'off' ? -1 : 1));
}

/** Each object's history as the evaluator reads it (its last turn-on). */
export function historyFrom(switches: Switch[]): Map<string, ObjectHistory> {
  const history = new Map<string, ObjectHistory>();
  for (const s of switches)
    if (s.turned === 'on') history.set(s.objectId, { lastTurnedOnAt: s.at });
    else if (!history.has(s.objectId)) history.set(s.objectId, { lastTurnedOnAt: null });
  return history;
}

/** The last switch of each object. */
export function lastSwitches(switches: Switch[]): Map<string, Switch> {
  const last = new Map<string, Switch>();
  for (const s of switches) last.set(s.objectId, s);
  return last;
}

/**
 * Objects the engine turned off whose snapshot shows their own status ACTIVE again: someone turned
 * them on by hand on the platform. Recorded once per turn-off, whichever run notices first.
 */
export async function recordPlatformTurnOns(
  db: Database,
  adAccountId: string,
  seenOn: { objectId: string; after: Switch }[],
  at: Date,
): Promise<void> {
  if (!seenOn.length) return;
  await db
    .insert(objectSwitches)
    .values(
      seenOn.map(({ objectId, after }) => ({
        adAccountId,
        objectId,
        turned: 'on',
        source: 'platform',
        ruleId: after.ruleId,
        at,
        followsId: after.entryId,
      })),
    )
    .onConflictDoNothing();
}

/** How many times each object was turned off and back on (complete pairs) in the switches given. */
export function flipsOf(switches: Switch[]): Map<string, number> {
  const flips = new Map<string, number>();
  const lastOff = new Set<string>();
  for (const s of switches) {
    if (s.turned === 'off') lastOff.add(s.objectId);
    else if (lastOff.delete(s.objectId)) flips.set(s.objectId, (flips.get(s.objectId) ?? 0) + 1);
  }
  return flips;
}
