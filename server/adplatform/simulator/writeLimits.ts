/**
 * Meta's limits on writes, as the simulator enforces them:
 * - an object's budget (daily_budget or lifetime_budget) changes at most 4 times in any hour of the
 *   simulated clock; the 5th change is refused (code 613, subcode 1487632) and the object takes no
 *   budget change for an hour after that refusal;
 * - an ad account takes at most 100 mutations (writes and deletes that took effect) in any second of
 *   real time (the simulated clock may stand still in tests); beyond, code 613 without a subcode.
 * Every refusal is counted, for tests and benches (`GET /__sim/limits`).
 */
import { errorAnswer, type GraphAnswer } from './answers';
import { HOUR } from './naming';

export const BUDGET_CHANGES_PER_HOUR = 4;
export const BUDGET_BLOCK_MS = HOUR;
export const MUTATIONS_PER_SECOND = 100;
export const BUDGET_CHANGE_SUBCODE = 1487632;

const RATE_LIMIT_MESSAGE = '(#613) Calls to this api have exceeded the rate limit.';

export interface LimitErrors {
  /** Budget writes refused: a 5th change within an hour, or any while the object is blocked. */
  budget_changes: number;
  /** Mutations refused: more than 100 in a second for one ad account. */
  mutations_per_second: number;
}

export class WriteLimits {
  readonly errors: LimitErrors = { budget_changes: 0, mutations_per_second: 0 };
  /** Simulated moments of each object's accepted budget changes (the last hour's are enough). */
  private readonly budgetChanges = new Map<string, number[]>();
  /** Until when (simulated) an object takes no budget change. */
  private readonly blockedUntil = new Map<string, number>();
  /** Real moments of each ad account's mutations in the last second. */
  private readonly mutations = new Map<string, number[]>();

  constructor(private readonly realNow: () => number = Date.now) {}

  /** Total refusals, as a bench reports `limit_errors`. */
  get total(): number {
    return this.errors.budget_changes + this.errors.mutations_per_second;
  }

  /** The refusal of a budget change to `id` at simulated `now`, or undefined (then call budgetChanged). */
  budgetRefusal(id: string, now: number): GraphAnswer | undefined {
    const blocked = this.blockedUntil.get(id);
    const recent = this.recentChanges(id, now);
    if (blocked !== undefined && now < blocked) return this.refuseBudget();
    if (recent.length < BUDGET_CHANGES_PER_HOUR) return undefined;
    this.blockedUntil.set(id, now + BUDGET_BLOCK_MS);
    return this.refuseBudget();
  }

  budgetChanged(id: string, now: number): void {
    this.recentChanges(id, now).push(now);
  }

  /** When `id` takes budget changes again, if it is blocked at `now`. */
  blockedAt(id: string, now: number): number | undefined {
    const until = this.blockedUntil.get(id);
    return until !== undefined && now < until ? until : undefined;
  }

  /** The refusal of one more mutation of the ad account (digits) now, or undefined (then call mutated). */
  mutationRefusal(accountId: string): GraphAnswer | undefined {
    if (this.recentMutations(accountId).length < MUTATIONS_PER_SECOND) return undefined;
    this.errors.mutations_per_second += 1;
    return errorAnswer(400, 613, RATE_LIMIT_MESSAGE, {
      is_transient: true,
      error_user_title: 'Too many changes',
      error_user_msg: `This ad account made more than ${MUTATIONS_PER_SECOND} changes in a second. Wait a moment and try again.`,
    });
  }

  mutated(accountId: string): void {
    this.recentMutations(accountId).push(this.realNow());
  }

  private refuseBudget(): GraphAnswer {
    this.errors.budget_changes += 1;
    return errorAnswer(400, 613, RATE_LIMIT_MESSAGE, {
      error_subcode: BUDGET_CHANGE_SUBCODE,
      is_transient: false,
      error_user_title: 'Too many budget changes',
      error_user_msg: `This budget was changed ${BUDGET_CHANGES_PER_HOUR} times within an hour. You can change it again in an hour.`,
    });
  }

  private recentChanges(id: string, now: number): number[] {
    const kept = (this.budgetChanges.get(id) ?? []).filter((at) => at > now - HOUR && at <= now);
    this.budgetChanges.set(id, kept);
    return kept;
  }

  private recentMutations(accountId: string): number[] {
    const now = this.realNow();
    const kept = (this.mutations.get(accountId) ?? []).filter((at) => at > now - 1000);
    this.mutations.set(accountId, kept);
    return kept;
  }
}
