/**
 * The backtest against what really happened: the engine runs a rule live against the simulator,
 * at its scheduled hours over simulated days (its reads kept in the metric history as always), then
 * the backtest replays the same rule over the same days; the (object, hour) turn-offs and revives
 * are compared. Agreement = the switches both made / the switches either made; each difference gets
 * its cause. The bench runs it (`--backtest`), and so does tests/server/backtest/agreement.test.ts.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { GraphClient } from '../../server/adplatform/graphClient';
import { startSimulator } from '../../server/adplatform/simulator/index';
import type { ScenarioName } from '../../server/adplatform/simulator/scenarios';
import { prepareBacktest, runBacktest, type BacktestRequest } from '../../server/backtest/service';
import type { Database } from '../../server/db/client';
import { folders, metaAdAccounts, ruleActivity, ruleItems, rules } from '../../server/db/schema/index';
import { runSlot } from '../../server/run/pipeline/runBatch';
import { backfillHistory } from '../../server/history/backfill';
import { HOUR_MS } from '../../server/history/reading';
import { NEW_RULE_JUDGING, type RuleJudging } from '../../shared/judging';
import type { BenchDatabase } from '../databases';
import { engineOnClock } from '../engineOnClock';
const TASKS = [
  { name: 'spend_cpl_no_leads', values: { spend: '30' }, is_active: true },
  { name: 'trigger_cpl', values: { cpl: '25' }, is_active: true },
];
const FILTERS = [
  { name: 'campaign_name_contains', values: ['EDM', 'SS', 'TIR', 'EP', 'LTC', 'RP'], is_active: true },
  { name: 'campaign_name_not_contains', values: [], is_active: false },
];

export interface AgreementOptions {
  days: number;
  seed?: number;
  /** The simulated account: its generated campaigns and ads, and the named scenarios beside them (default all). */
  campaigns?: number;
  adsPerCampaign?: number;
  scenarios?: readonly ScenarioName[];
  /** The rule runs every this many hours (default every hour). */
  everyHours?: number;
  judging?: RuleJudging;
}

export interface AgreementResult {
  agreement: number;
  /** The (object, hour) switches either side made: turn-offs, and revives. */
  pauses: number;
  revives: number;
  differences: string[];
}

/** The bench's run: the default world, every hour, revive on (72 h) beside a new rule's other settings. */
export async function agreementRun(database: BenchDatabase, days: number, seed = 7): Promise<AgreementResult> {
  try {
    return await liveThenBacktest(database.handle.db, {
      days,
      seed,
      judging: { ...NEW_RULE_JUDGING, revive_hours: 72 },
    });
  } finally {
    await database.close();
  }
}

export async function liveThenBacktest(db: Database, options: AgreementOptions): Promise<AgreementResult> {
  const { days, everyHours = 1, judging = NEW_RULE_JUDGING } = options;
  const schedule = Array.from({ length: 7 }, () => Array.from({ length: 24 }, (_, h) => h % everyHours === 0));
  const start = Date.parse('2026-03-02T00:00:00Z');
  const sim = await startSimulator({
    seed: options.seed ?? 7,
    start: new Date(start).toISOString(),
    speed: 0,
    accounts: 1,
    campaignsPerAccount: options.campaigns ?? 8,
    adsPerCampaign: options.adsPerCampaign ?? 3,
    ...(options.scenarios ? { scenarios: options.scenarios } : {}),
  });
  try {
    const client = new GraphClient({
      baseUrl: sim.url,
      apiVersion: 'v25.0',
      accessToken: 'simulator-token',
      sleep: async () => undefined,
      timeoutMs: 5000,
    });
    const [account] = await client.listAdAccounts();
    const adAccountId = `act_${account!.account_id}`;
    await db
      .insert(metaAdAccounts)
      .values({ adAccountId, accountName: account!.name, timezoneName: 'UTC', currency: account!.currency });
    const [folder] = await db
      .insert(folders)
      .values({ name: 'Agreement', clientType: 'EDM', plan: 'solo', adAccountId })
      .returning();
    const [rule] = await db
      .insert(rules)
      .values({
        folderId: folder!.id,
        name: 'Agreement',
        isActive: true,
        schedule,
        judging,
        alertSchedule: Array(24).fill(false),
        timezone: 'UTC',
      })
      .returning();
    await db
      .insert(ruleItems)
      .values(
        [
          ...FILTERS.map((f) => ({ ...f, type: 'rule_filter' })),
          ...TASKS.map((t) => ({ ...t, type: 'rule_task' })),
        ].map(({ is_active, ...item }, position) => ({ ...item, isActive: is_active, ruleId: rule!.id, position })),
      );
    // The account's first sync fills its history from the platform's breakdowns (settled numbers), as
    // in the product: without it the replay cannot tell an ad that delivered before the first live read.
    sim.clock.set(start - 60_000);
    await backfillHistory(db, client, { adAccountId, timezone: 'UTC', days: 7, now: new Date(start - 60_000) });
    let clock = new Date(start);
    const ctx = engineOnClock(db, client, () => clock, 10_000);
    for (let hour = 0; hour < days * 24; hour += everyHours) {
      const slot = new Date(start + hour * HOUR_MS);
      clock = new Date(slot.getTime() + 30_000);
      sim.clock.set(clock.getTime());
      await runSlot(ctx, { ruleId: rule!.id, slot, kind: 'run' });
    }
    const live = await db
      .select({ adId: ruleActivity.adId, slot: ruleActivity.slot, action: ruleActivity.action })
      .from(ruleActivity)
      .where(
        and(
          eq(ruleActivity.ruleId, rule!.id),
          eq(ruleActivity.state, 'done'),
          inArray(ruleActivity.action, ['turn_off_ad', 'turn_off_campaign', 'revive_ad']),
        ),
      );
    const end = new Date(start + days * 24 * HOUR_MS - HOUR_MS + 60_000);
    const request: BacktestRequest = {
      folder: folder!.id,
      days,
      rule: { rule_filter: FILTERS, rule_task: TASKS, rule_schedule: { schedule, timezone: 'UTC' }, judging },
    };
    const result = await runBacktest(db, request, await prepareBacktest(db, request), { now: end, limits: ctx.limits });
    const keyOf = (action: string, objectId: string, at: string) =>
      `${action === 'revive_ad' ? 'revive ' : ''}${objectId}@${at}`;
    const liveKeys = new Set(live.map((e) => keyOf(e.action, e.adId!, e.slot!.toISOString())));
    const made = result.results.filter((r) => r.verdict !== 'held');
    const backtestKeys = new Set([
      ...made.map((r) => keyOf('turn_off', r.object_id, r.at)),
      ...made.filter((r) => r.revived_at).map((r) => keyOf('revive_ad', r.object_id, r.revived_at!)),
    ]);
    const both = [...liveKeys].filter((k) => backtestKeys.has(k));
    const union = new Set([...liveKeys, ...backtestKeys]);
    const differences = [
      ...[...liveKeys]
        .filter((k) => !backtestKeys.has(k))
        .map((k) => `${k}: the engine ${switched(k)} it, the backtest did not (${causeOf(k, result.results)})`),
      ...[...backtestKeys]
        .filter((k) => !liveKeys.has(k))
        .map((k) => `${k}: the backtest ${switched(k)} it, the engine did not`),
    ];
    return {
      agreement: union.size ? both.length / union.size : 1,
      pauses: union.size,
      revives: [...union].filter((k) => k.startsWith('revive ')).length,
      differences,
    };
  } finally {
    await sim.close();
  }
}

const switched = (key: string) => (key.startsWith('revive ') ? 'revived' : 'paused');

function causeOf(key: string, results: { object_id: string; at: string; revived_at: string | null }[]): string {
  const [id] = key.replace('revive ', '').split('@');
  const other = results.find((r) => r.object_id === id);
  if (!other) return 'the backtest never crossed the threshold for it: its hour was not read the same';
  const at = key.startsWith('revive ') ? other.revived_at : other.at;
  return `the backtest ${switched(key)} it at ${at ?? 'no hour'} instead: the reading kept for the hour differs from the one the engine judged`;
}
