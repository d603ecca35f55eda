/**
 * A rule-engine worker in its own process, for the multi-process tests (engine-processes.test.ts).
 * Settings come from the environment:
 *   DATABASE_URL   the shared PostgreSQL database
 *   GRAPH_URL      the Graph simulator
 *   ENGINE_NOW     the instant the scan treats as now (ISO)
 *   MODE           queue: scan + pg-boss workers (scans repeatedly, racing the other process);
 *                  direct: call runSlot for every RULE_IDS at SLOT at once (two processes racing
 *                  on the very same slots, as duplicated jobs would)
 *   RULE_IDS, SLOT (direct mode)
 *   QUEUE_TUNING   (queue mode) fast: supervision and retries each second, as a test wants them;
 *                  production: the product's own (a dead worker noticed by its missed heartbeats)
 * Every job it finishes is printed as one JSON line: {"done": ruleId, "status": …, "turnedOff": n}.
 */
import { GraphClient } from '../../../server/adplatform/graphClient';
import { openPostgres } from '../../../server/db/client';
import { startRuleEngine } from '../../../server/run/startInWorker';
import type { EngineContext } from '../../../server/run/pipeline/context';
import { runSlot } from '../../../server/run/pipeline/runBatch';
import { createSnapshotStore } from '../../../server/run/accountSnapshots';
import type { Mailer } from '../../../server/mail/mailer';

const env = process.env;
const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
const log = {
  info: (m: string) => print({ log: m }),
  warn: (m: string) => print({ log: m }),
  error: (m: string) => print({ error: m }),
};
const now = () => new Date(env.ENGINE_NOW!);
/** These workers race on rules that turn off every ad with a lead: the blast-radius limit is lifted. */
const limits = { maxShare: 1, maxActions: 10_000 };
const noMail: Mailer = { mode: 'outbox', send: async () => ({ messageId: 'none' }), close: async () => undefined };

async function main() {
  const dbh = await openPostgres(env.DATABASE_URL!, 4);
  const client = new GraphClient({
    baseUrl: env.GRAPH_URL!,
    apiVersion: 'v25.0',
    accessToken: 'simulator-token',
    timeoutMs: 20_000,
    backoff: { baseMs: 50, maxMs: 200 },
  });

  if (env.MODE === 'direct') {
    const ctx: EngineContext = {
      db: dbh.db,
      client,
      snapshots: createSnapshotStore(dbh.db, { client, pollMs: 20 }),
      log,
      now,
      limits,
    };
    const slot = new Date(env.SLOT!);
    const ids = env.RULE_IDS!.split(',').map(Number);
    await Promise.all(
      ids.map(async (ruleId) => {
        const result = await runSlot(ctx, { ruleId, slot, kind: 'run' });
        print({ done: ruleId, status: result.status, turnedOff: result.turnedOff.length });
      }),
    );
    await dbh.close();
    return;
  }

  const engine = await startRuleEngine({
    dbh,
    client: {
      listAdAccounts: () => client.listAdAccounts(),
      listCampaigns: (id) => client.listCampaigns(id),
      listAds: (id) => client.listAds(id),
      listCampaignsWithAds: (id) => client.listCampaignsWithAds(id),
      getInsights: (id, q) => client.getInsights(id, q),
      setStatuses: async (changes) => {
        print({ sending: changes.map((c) => c.id) });
        return client.setStatuses(changes);
      },
    },
    alerts: { mailer: noMail, recipients: ['ops@example.com'], publicUrl: 'http://console.test' },
    log: {
      ...log,
      info: (m: string) => {
        const done = /^rule (\d+) ".*" run at .*: (.*)$/.exec(m);
        print(done ? { done: Number(done[1]), note: done[2] } : { log: m });
      },
    },
    now,
    limits,
    autoScan: false,
    pollingIntervalSeconds: 0.5,
    concurrency: 3,
    queue: env.QUEUE_TUNING === 'production' ? {} : { superviseIntervalSeconds: 1, retryDelaySeconds: 1 },
  });
  print({ ready: true });
  const scanning = setInterval(() => {
    engine.scan().catch((error: Error) => print({ error: error.message }));
  }, 300);
  const stop = async () => {
    clearInterval(scanning);
    await engine.stop();
    await dbh.close();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error) => {
  print({ error: String(error?.stack ?? error) });
  process.exit(1);
});
