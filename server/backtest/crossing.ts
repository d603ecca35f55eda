/**
 * Which ads the replay must hand the evaluator at an hour: those whose numbers cross at least one of
 * the rule's active ad tasks (the engine's own checks, on the whole spend). An ad that crosses none
 * gets no turn-off whatever its age, exemption, cool-down or lag allowance — those only ever hold a
 * crossing ad back, and the lag allowance only lowers the spend a task reads, which no task's check
 * turns into a crossing (tests/server/backtest/crossing.test.ts holds every task to that). The
 * evaluator judges ads one by one, so leaving the others out of the hour's snapshot changes none of
 * its turn-offs; most ads cross nothing most hours, and the replay then judges a handful, not all.
 *
 * Campaign tasks sum every ad of a campaign: a rule with one is judged on the whole account.
 */
import { activeAdTasks, activeThresholds, type AdCheck } from '../engine/evaluate';
import type { ObjectMetrics } from '../engine/objectMetrics';
import type { EngineRule, TaskName } from '../engine/ruleShape';
import { metricsOfNumbers } from '../history/reading';
import { numbersAt, type AdSeries } from '../history/timeline';

export class CrossingAds {
  private readonly checks: { check: AdCheck; thresholds: Record<string, number> }[];
  /** Per ad: the reading its answer was found for (-1: none yet), and the answer. */
  private readonly answeredRead: Int32Array;
  private readonly answer: Uint8Array;

  /** null when the rule has a campaign task: every ad must be judged. */
  static of(rule: EngineRule, currency: string, ads: number): CrossingAds | null {
    const thresholds = activeThresholds(rule, []);
    if (thresholds.has('campaign_leads' satisfies TaskName)) return null;
    return new CrossingAds(
      activeAdTasks(thresholds).map(([task, check]) => ({ check, thresholds: thresholds.get(task)! })),
      currency,
      ads,
    );
  }

  private constructor(
    checks: CrossingAds['checks'],
    private readonly currency: string,
    ads: number,
  ) {
    this.checks = checks;
    this.answeredRead = new Int32Array(ads).fill(-1);
    this.answer = new Uint8Array(ads);
  }

  /** The ad (its index in the timeline) crosses a task on the numbers of this reading. */
  crosses(index: number, series: AdSeries, read: number): boolean {
    if (this.answeredRead[index] !== read) {
      this.answer[index] = this.crossing(metricsOfNumbers(numbersAt(series, read))) ? 1 : 0;
      this.answeredRead[index] = read;
    }
    return this.answer[index] === 1;
  }

  private crossing(metrics: ObjectMetrics | null): boolean {
    return metrics !== null && this.checks.some(({ check, thresholds }) => check(metrics, thresholds, this.currency));
  }
}
