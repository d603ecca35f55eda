/**
 * One rule-engine worker of the soak bench (`npm run bench -- --soak`), started (and killed with
 * SIGKILL, and started again) by bench/soak/run.ts. It runs the engine as `ROLE=worker` does —
 * startRuleEngine with the product's queue pacing (job heartbeat, supervision, retry delay), the
 * sweep that settles runs a dead process left (startOrphanSweep), the production GraphClient, real
 * mail over SMTP — on an accelerated clock shared with the Graph simulator: now = SIM_START + (real
 * time since REAL_START) × SPEED. Only the scan check and the alert delay are scaled down to that
 * clock; more retries than the product's 3 outlast the soak's platform outage.
 *
 * Environment: DATABASE_URL, GRAPH_URL, SMTP_URL, SIM_START (ISO), REAL_START (ms), SPEED.
 * stdout: {ready} once, {running: [rule_runs ids]} whenever the runs it keeps alive change, {error} lines.
 */
import { GraphClient } from '../../server/adplatform/graphClient';
import { DEFAULT_META_API_VERSION } from '../../server/adplatform/versions';
import { openPostgres } from '../../server/db/client';
import { startRuleEngine } from '../../server/run/startInWorker';
import { startOrphanSweep } from '../../server/run/orphanedRuns';
import { createRunHeartbeat, type RunHeartbeat } from '../../server/run/runHeartbeat';
import { createMailer } from '../../server/mail/mailer';

const env = process.env;
const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
const simStart = new Date(env.SIM_START!).getTime();
const realStart = Number(env.REAL_START);
const speed = Number(env.SPEED);
const now = () => new Date(simStart + (Date.now() - realStart) * speed);

/** The process's run heartbeat, telling run.ts which ledger rows this process holds (so a kill lands mid-run). */
function reportingHeartbeat(base: RunHeartbeat): RunHeartbeat {
  const held = new Map<number, number>();
  const report = () => print({ running: [...held.keys()] });
  return {
    async during(runIds, work) {
      const ids = runIds.filter((id): id is number => id !== null);
      for (const id of ids) held.set(id, (held.get(id) ?? 0) + 1);
      report();
      try {
        return await base.during(runIds, work);
      } finally {
        for (const id of ids) {
          const left = (held.get(id) ?? 1) - 1;
          if (left > 0) held.set(id, left);
          else held.delete(id);
        }
        report();
      }
    },
    stop: () => base.stop(),
  };
}

async function main() {
  const dbh = await openPostgres(env.DATABASE_URL!, 4);
  const graph = new GraphClient({
    baseUrl: env.GRAPH_URL!,
    apiVersion: DEFAULT_META_API_VERSION,
    accessToken: 'soak-token',
    timeoutMs: 4_000,
    backoff: { baseMs: 100, maxMs: 1_000 },
  });
  const mailer = createMailer({ smtpUrl: env.SMTP_URL, from: 'Soak <rules@example.com>', outboxDir: '/nonexistent' });
  const quiet = () => undefined;
  const log = { info: quiet, warn: quiet, error: (message: string) => print({ error: message }) };
  const heartbeat = reportingHeartbeat(createRunHeartbeat(dbh.db, { warn: (m) => print({ error: m }) }));
  const engine = await startRuleEngine({
    dbh,
    client: graph,
    alerts: { mailer, recipients: ['ops@example.com'], publicUrl: 'http://console.test', sender: 'rules@example.com' },
    log,
    now,
    scanCheckMs: 250,
    alertDelaySeconds: 1,
    pollingIntervalSeconds: 0.5,
    heartbeat,
    // The product's own queue pacing: heartbeat, supervision, retries (enough for the soak's outage).
  });
  // As every production process does (server/run/startInServer.ts), on the engine's own context.
  const sweep = startOrphanSweep(engine.context);
  print({ ready: true });
  const stop = async () => {
    await sweep.stop();
    await engine.stop();
    heartbeat.stop();
    await mailer.close();
    await dbh.close();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error) => {
  print({ error: String(error?.stack ?? error) });
  process.exit(1);
});
