/**
 * Which ads the replay must hand the evaluator at an hour: those whose numbers cross at least one of
 * the rule's active ad tasks (the engine's own checks, on the whole spend), or whose numbers and
 * quality as known at the hour make one of its outcome tasks act. An ad that crosses none gets no
 * turn-off whatever its age, exemption, cool-down or lag allowance — those only ever hold a crossing
 * ad back, the lag allowance only lowers the spend a metric task reads, which no task's check turns
 * into a crossing, and the outcome tasks read the whole spend (tests/server/backtest/crossing.test.ts
 * holds every task to that). The evaluator judges ads one by one, so leaving the others out of the
 * hour's snapshot changes none of its turn-offs; most ads cross nothing most hours, and the replay
 * then judges a handful, not all.
 *
 * Campaign tasks sum every ad of a campaign: a rule with one is judged on the whole account.
 */
import { activeAdTaskSets, activeThresholds, type AdCheck } from '../judgement/evaluate';
import type { ObjectMetrics } from '../judgement/objectMetrics';
import type { OutcomeCheck } from '../judgement/outcomeTasks';
import type { EngineRule, TaskName } from '../judgement/ruleShape';
import { metricsOfNumbers } from '../history/reading';
import { numbersAt, type AdSeries } from '../history/timeline';
import type { AdQuality, QualityByAd } from '../outcomes/quality';

type Checked<C> = { check: C; thresholds: Record<string, number> };

export class CrossingAds {
  private readonly metricChecks: Checked<AdCheck>[];
  private readonly outcomeChecks: Checked<OutcomeCheck>[];
  /** Per ad: the reading its metrics and metric answer were found for (-1: none yet), and those. */
  private readonly answeredRead: Int32Array;
  private readonly answer: Uint8Array;
  private readonly metrics: (ObjectMetrics | null)[] = [];
  /** What the ads' leads had become at the hour being judged; null: the rule has no outcome task. */
  private quality: QualityByAd | null = null;

  /** null when the rule has a campaign task: every ad must be judged. */
  static of(rule: EngineRule, currency: string, ads: number): CrossingAds | null {
    const thresholds = activeThresholds(rule, []);
    if (thresholds.has('campaign_leads' satisfies TaskName)) return null;
    const tasks = activeAdTaskSets(thresholds);
    const withThresholds = <C>([task, check]: [TaskName, C]): Checked<C> => ({
      check,
      thresholds: thresholds.get(task)!,
    });
    return new CrossingAds(tasks.metric.map(withThresholds), tasks.outcome.map(withThresholds), currency, ads);
  }

  private constructor(
    metricChecks: Checked<AdCheck>[],
    outcomeChecks: Checked<OutcomeCheck>[],
    private readonly currency: string,
    ads: number,
  ) {
    this.metricChecks = metricChecks;
    this.outcomeChecks = outcomeChecks;
    this.answeredRead = new Int32Array(ads).fill(-1);
    this.answer = new Uint8Array(ads);
  }

  /** The hour about to be judged: what each ad's leads had become then (the outcome tasks read it). */
  judgingWith(quality: QualityByAd | null) {
    this.quality = this.outcomeChecks.length ? quality : null;
  }

  /** The ad (its index in the timeline) crosses a task on the numbers of this reading and the hour's quality. */
  crosses(index: number, series: AdSeries, read: number): boolean {
    if (this.answeredRead[index] !== read) {
      const metrics = metricsOfNumbers(numbersAt(series, read));
      this.metrics[index] = metrics;
      this.answer[index] = metrics !== null && this.crossesMetricTask(metrics) ? 1 : 0;
      this.answeredRead[index] = read;
    }
    if (this.answer[index] === 1) return true;
    const quality = this.quality?.get(series.adId);
    const metrics = this.metrics[index];
    return quality !== undefined && metrics != null && this.outcomeTaskActs(metrics, quality);
  }

  private crossesMetricTask(metrics: ObjectMetrics): boolean {
    return this.metricChecks.some(({ check, thresholds }) => check(metrics, thresholds, this.currency));
  }

  private outcomeTaskActs(metrics: ObjectMetrics, quality: AdQuality): boolean {
    return this.outcomeChecks.some(
      ({ check, thresholds }) => check(metrics, quality, thresholds, this.currency).verdict === 'acted',
    );
  }
}
