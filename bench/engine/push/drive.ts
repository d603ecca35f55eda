/**
 * One run of the push bench: the agency (agency.ts) in a fresh simulator at a stopped clock, one
 * folder and one typical rule per ad account in a fresh database, and the engine as a worker runs
 * it (pg-boss queues, the run pipeline) on the simulated clock, moved by the bench:
 *
 * - polling: an hour at a time, each rule run at each of its hours (Meta pushes nothing);
 * - push: the product's receiver listening on loopback, the simulator posting Meta's signed
 *   webhooks to it as its clock moves a step at a time (a minute), the engine's scan at each hour
 *   keeping only what its floor keeps, rechecks fired when due.
 *
 * After each move the bench waits until the product is idle (deliveries answered, queues empty):
 * what happens in a step happens at that step's simulated moment, and the wall time it took is
 * kept per step. What the engine did is read back afterwards.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { GraphClient } from '../../../server/adplatform/graphClient';
import { startSimulator, type Simulator } from '../../../server/adplatform/simulator/index';
import { graphSubscriptions } from '../../../server/adplatform/subscriptions';
import { DEFAULT_META_API_VERSION } from '../../../server/adplatform/versions';
import { buildApp } from '../../../server/app';
import { loadConfig } from '../../../server/config';
import { folders, metaAdAccounts, ruleItems, rules } from '../../../server/db/schema/index';
import { startRuleEngine, type RuleEngine } from '../../../server/run/startInWorker';
import type { Mailer } from '../../../server/mail/mailer';
import { createPushQueue, type PushQueue } from '../../../server/push/queue';
import { WEBHOOK_PATH } from '../../../server/push/startup';
import { NEW_RULE_JUDGING } from '../../../shared/judging';
import type { BenchDatabase } from '../../databases';
import { buildPushAgency, type PushAgencyAd } from './agency';

export type Mode = 'polling' | 'push';

export interface PushBenchOptions {
  accounts: number;
  campaignsPerAccount: number;
  adsPerCampaign: number;
  hours: number;
  /** How far the clock moves at a time under push, in simulated seconds. */
  stepSeconds: number;
  seed: number;
}

export const HOUR_MS = 3_600_000;
/** A Monday, midnight UTC, when Meta's default API version is live. */
export const PUSH_BENCH_START = Date.parse('2026-09-07T00:00:00Z');
const SECRET = randomBytes(16).toString('hex');
const VERIFY_TOKEN = randomBytes(8).toString('hex');
const everyHour = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => true));
const noMail: Mailer = { mode: 'outbox', send: async () => ({ messageId: 'none' }), close: async () => undefined };
const quiet = { info() {}, warn() {}, error() {} };

export interface DrivenMode {
  mode: Mode;
  sim: Simulator;
  ads: PushAgencyAd[];
  /** Wall milliseconds a step took from the clock's move to the product idle, by the step's moment. */
  stepWallMs: Map<number, number>;
  seconds: number;
}

async function seedRules(database: BenchDatabase, sim: Simulator): Promise<void> {
  const db = database.handle.db;
  for (const account of sim.world.accounts) {
    const adAccountId = `act_${account.accountId}`;
    await db.insert(metaAdAccounts).values({
      adAccountId,
      accountName: account.name,
      timezoneName: account.timezone,
      currency: account.currency,
    });
    const [folder] = await db
      .insert(folders)
      .values({ name: account.name, clientType: 'EDM', plan: 'solo', adAccountId })
      .returning();
    const [rule] = await db
      .insert(rules)
      .values({
        folderId: folder!.id,
        name: 'Cut what does not convert',
        isActive: true,
        schedule: everyHour,
        alertSchedule: Array(24).fill(false),
        timezone: 'UTC',
        judging: NEW_RULE_JUDGING,
        // Changed before the first simulated hour, so every hour counts (scheduler.ts).
        updatedAt: new Date(PUSH_BENCH_START - 24 * HOUR_MS),
      })
      .returning();
    await db.insert(ruleItems).values(
      [
        { type: 'rule_filter', name: 'campaign_name_contains', values: ['EDM'], isActive: true, position: 0 },
        { type: 'rule_filter', name: 'campaign_name_not_contains', values: [], isActive: false, position: 1 },
        { type: 'rule_task', name: 'spend_cpl_no_leads', values: { spend: '40' }, isActive: true, position: 2 },
        { type: 'rule_task', name: 'trigger_cpl', values: { cpl: '60' }, isActive: true, position: 3 },
      ].map((item) => ({ ...item, ruleId: rule!.id })),
    );
  }
}

/** The product's receiver: the app as the server builds it, listening on loopback. */
async function startReceiver(database: BenchDatabase, queue: PushQueue) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'push-bench-'));
  const config = loadConfig({ DATA_DIR: dataDir } as NodeJS.ProcessEnv, {
    metaAppSecret: SECRET,
    metaWebhookVerifyToken: VERIFY_TOKEN,
  });
  const app = await buildApp({
    config,
    dbh: database.handle,
    jwtSecret: randomBytes(32).toString('hex'),
    services: { pushQueue: queue },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  return {
    callbackUrl: `http://127.0.0.1:${port}${WEBHOOK_PATH}`,
    async close() {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Waits until nothing is queued or running and no notification waits: the step's work is done. */
async function idle(database: BenchDatabase, push: boolean): Promise<void> {
  for (;;) {
    const { rows } = await database.handle.sql.query<{ n: number }>(
      `select (select count(*) from pgboss.job where name in ('rule-run', 'meta-push') and state in ('created', 'retry', 'active'))::int
            + ${push ? `(select count(*) from meta_notifications where state = 'new')::int` : '0'} as n`,
    );
    if (Number(rows[0]!.n) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export async function driveMode(
  database: BenchDatabase,
  mode: Mode,
  options: PushBenchOptions,
  log: (line: string) => void,
): Promise<DrivenMode> {
  const began = performance.now();
  const push = mode === 'push';
  const sim = await startSimulator({
    seed: options.seed,
    start: PUSH_BENCH_START,
    speed: 0,
    accounts: options.accounts,
    campaignsPerAccount: 0,
    adsPerCampaign: 0,
    scenarios: [],
  });
  const ads = buildPushAgency(sim.world, PUSH_BENCH_START, options, options.seed);
  const client = new GraphClient({
    baseUrl: sim.url,
    apiVersion: DEFAULT_META_API_VERSION,
    accessToken: 'simulator-token',
    sleep: async () => undefined,
    timeoutMs: 30_000,
  });
  await seedRules(database, sim);
  let clock = new Date(PUSH_BENCH_START);
  const queue = push ? createPushQueue({ dbh: database.handle, log: quiet, pollingIntervalMs: 500 }) : undefined;
  const receiver = queue ? await startReceiver(database, queue) : undefined;
  let engine: RuleEngine | undefined;
  const stepWallMs = new Map<number, number>();
  try {
    engine = await startRuleEngine({
      dbh: database.handle,
      client,
      alerts: { mailer: noMail, recipients: ['ops@example.com'], publicUrl: 'http://console.test' },
      limits: { maxShare: 1, maxActions: 1_000_000 },
      log: quiet,
      now: () => clock,
      autoScan: false,
      pollingIntervalSeconds: 0.5,
      ...(queue
        ? {
            push: {
              queue,
              subscriptions: graphSubscriptions(client),
              readStatuses: (ids: string[]) => client.readStatuses(ids),
              recheckEveryMs: 0,
            },
          }
        : {}),
    });
    if (push) {
      await sim.webhooks.configure({
        callbackUrl: receiver!.callbackUrl,
        appSecret: SECRET,
        verifyToken: VERIFY_TOKEN,
      });
      await engine.push!.reconcile();
    }
    const end = PUSH_BENCH_START + options.hours * HOUR_MS;
    const step = push ? options.stepSeconds * 1000 : HOUR_MS;
    for (let at = PUSH_BENCH_START; at < end; at += step) {
      const moved = performance.now();
      clock = new Date(at);
      sim.clock.set(at);
      let worked = false;
      if (at % HOUR_MS === 0) worked = (await engine.scan(clock)).length > 0;
      if (push) {
        const sent = sim.webhooks.deliveries.length;
        await sim.webhooks.settled();
        worked ||= sim.webhooks.deliveries.length > sent;
        worked = (await engine.push!.recheck(clock)) > 0 || worked;
      }
      if (!worked) continue;
      await idle(database, push);
      stepWallMs.set(at, performance.now() - moved);
      if (at % (6 * HOUR_MS) === 0) log(`  ${mode}: hour ${(at - PUSH_BENCH_START) / HOUR_MS} of ${options.hours}`);
    }
  } finally {
    await engine?.stop();
    await receiver?.close();
    await queue?.stop();
  }
  return { mode, sim, ads, stepWallMs, seconds: Math.round((performance.now() - began) / 100) / 10 };
}
