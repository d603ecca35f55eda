/**
 * The backtest against what really happened: the engine runs a rule live against the simulator,
 * hour by hour over simulated days (its reads kept in the metric history as always), then the
 * backtest replays the same rule over the same days; the (object, hour) turn-offs are compared.
 * Agreement = the turn-offs both made / the turn-offs either made; each difference gets its cause.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { GraphClient } from '../../server/adplatform/graphClient';
import { startSimulator } from '../../server/adplatform/simulator/index';
import { prepareBacktest, runBacktest, type BacktestRequest } from '../../server/backtest/service';
import { folders, metaAdAccounts, ruleActivity, ruleItems, rules } from '../../server/db/schema/index';
import { runSlot } from '../../server/engine/pipeline/runBatch';
import { backfillHistory } from '../../server/history/backfill';
import { HOUR_MS } from '../../server/history/reading';
import type { BenchDatabase } from '../databases';
import { engineOnClock } from '../engineOnClock';

const everyHour = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => true));
const TASKS = [
  { name: 'spend_cpl_no_leads', values: { spend: '30' }, is_active: true },
  { name: 'trigger_cpl', values: { cpl: '25' }, is_active: true },
];
const FILTERS = [
  { name: 'campaign_name_contains', values: ['EDM', 'SS', 'TIR', 'EP', 'LTC', 'RP'], is_active: true },
  { name: 'campaign_name_not_contains', values: [], is_active: false },
];

export interface AgreementResult {
  agreement: number;
  pauses: number;
  differences: string[];
}

export async function agreementRun(database: BenchDatabase, days: number, seed = 7): Promise<AgreementResult> {
  const db = database.handle.db;
  const start = Date.parse('2026-03-02T00:00:00Z');
  const sim = await startSimulator({
    seed,
    start: new Date(start).toISOString(),
    speed: 0,
    accounts: 1,
    campaignsPerAccount: 8,
    adsPerCampaign: 3,
  });
  try {
    const client = new GraphClient({
      baseUrl: sim.url,
      apiVersion: 'v21.0',
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
        schedule: everyHour,
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
    for (let hour = 0; hour < days * 24; hour += 1) {
      const slot = new Date(start + hour * HOUR_MS);
      clock = new Date(slot.getTime() + 30_000);
      sim.clock.set(clock.getTime());
      await runSlot(ctx, { ruleId: rule!.id, slot, kind: 'run' });
    }
    const live = await db
      .select({ adId: ruleActivity.adId, slot: ruleActivity.slot })
      .from(ruleActivity)
      .where(
        and(
          eq(ruleActivity.ruleId, rule!.id),
          eq(ruleActivity.state, 'done'),
          inArray(ruleActivity.action, ['turn_off_ad', 'turn_off_campaign']),
        ),
      );
    const end = new Date(start + days * 24 * HOUR_MS - HOUR_MS + 60_000);
    const request: BacktestRequest = {
      folder: folder!.id,
      days,
      rule: { rule_filter: FILTERS, rule_task: TASKS, rule_schedule: { schedule: everyHour, timezone: 'UTC' } },
    };
    const result = await runBacktest(db, request, await prepareBacktest(db, request), { now: end, limits: ctx.limits });
    const liveKeys = new Set(live.map((e) => `${e.adId}@${e.slot!.toISOString()}`));
    const backtestKeys = new Set(
      result.results.filter((r) => r.verdict !== 'held').map((r) => `${r.object_id}@${r.at}`),
    );
    const both = [...liveKeys].filter((k) => backtestKeys.has(k));
    const union = new Set([...liveKeys, ...backtestKeys]);
    const differences = [
      ...[...liveKeys]
        .filter((k) => !backtestKeys.has(k))
        .map((k) => `${k}: the engine paused it, the backtest did not (${causeOf(k, result.results)})`),
      ...[...backtestKeys]
        .filter((k) => !liveKeys.has(k))
        .map((k) => `${k}: the backtest paused it, the engine did not`),
    ];
    return { agreement: union.size ? both.length / union.size : 1, pauses: union.size, differences };
  } finally {
    await database.close();
    await sim.close();
  }
}

function causeOf(key: string, results: { object_id: string; at: string }[]): string {
  const [id] = key.split('@');
  const other = results.find((r) => r.object_id === id);
  if (!other) return 'the backtest never crossed the threshold for it: its hour was not read the same';
  return `the backtest paused it at ${other.at} instead: the reading kept for the hour differs from the one the engine judged`;
}
