/**
 * The rule engine as a bench drives it: on the bench's own (simulated) clock, quiet, reading
 * snapshots without waiting, and acting on every decision (no run held by the blast-radius limits),
 * so each one counts.
 */
import type { EngineContext } from '../server/run/pipeline/context';
import { createSnapshotStore } from '../server/run/accountSnapshots';

const quiet = { info() {}, warn() {}, error() {} };

export function engineOnClock(
  db: EngineContext['db'],
  client: EngineContext['client'],
  now: () => Date,
  maxActions: number,
): EngineContext {
  return {
    db,
    client,
    snapshots: createSnapshotStore(db, { client, now, pollMs: 20 }),
    log: quiet,
    now,
    limits: { maxShare: 1, maxActions },
  };
}
