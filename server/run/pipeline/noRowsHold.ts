/**
 * No-rows hold: a run whose rule reads the hourly breakdown (a maturity in hours, a lag allowance)
 * acts on nothing when Graph answered that breakdown with no rows for days the account delivered
 * (hourlyRead.ts): an empty answer is not zero, and read as zero it would judge every ad on spend
 * that has not had time to convert. Its record says so, as a held unhealthy run does (healthHold.ts);
 * the next run reads again.
 */
import { live, triggerOf, type InBatch } from './batch';
import { readsHourly } from './judgingInputs';

export function holdOnMissingRows(work: InBatch[]): void {
  for (const item of live(work)) {
    const noRows = item.snapshot?.data.hourlyNoRows;
    if (!noRows || !readsHourly(item.rule.judging)) continue;
    const note = `held: ${noRows}; nothing is judged on numbers Meta left out`;
    item.finish = {
      status: 'done',
      note,
      record: {
        trigger: triggerOf(item.run),
        snapshotId: item.snapshot!.id,
        outcome: 'unhealthy',
        counts: { objects: 0 },
        details: { v: 1, objects: [], problems: [`hourly breakdown: ${noRows}`] },
      },
    };
    item.result = { status: 'unhealthy', turnedOff: [], failed: [], note, runId: item.runId };
  }
}
