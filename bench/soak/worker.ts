/**
 * One rule-engine worker of the soak bench (`npm run bench -- --soak`), started (and killed with
 * SIGKILL, and started again) by bench/soak/run.ts. It runs the engine as `ROLE=worker` does —
 * startRuleEngine, the production GraphClient, real mail over SMTP — on an accelerated clock
 * shared with the Graph simulator: now = SIM_START + (real time since REAL_START) × SPEED. The
 * engine's pacing (scan check, alert delay, job lease) is scaled down to that clock.
 *
 * Environment: DATABASE_URL, GRAPH_URL, SMTP_URL, SIM_START (ISO), REAL_START (ms), SPEED.
 * stdout: {ready} once, then {error} lines.
 */
import { GraphClient } from '../../server/adplatform/graphClient';
import { openPostgres } from '../../server/db/client';
import { startRuleEngine } from '../../server/engine/engine';
import { createMailer } from '../../server/mail/mailer';

const env = process.env;
const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
const simStart = new Date(env.SIM_START!).getTime();
const realStart = Number(env.REAL_START);
const speed = Number(env.SPEED);
const now = () => new Date(simStart + (Date.now() - realStart) * speed);

async function main() {
  const dbh = await openPostgres(env.DATABASE_URL!, 4);
  const graph = new GraphClient({
    baseUrl: env.GRAPH_URL!,
    apiVersion: 'v21.0',
    accessToken: 'soak-token',
    timeoutMs: 4_000,
    backoff: { baseMs: 100, maxMs: 1_000 },
  });
  const mailer = createMailer({ smtpUrl: env.SMTP_URL, from: 'Soak <rules@example.com>', outboxDir: '/nonexistent' });
  const quiet = () => undefined;
  const engine = await startRuleEngine({
    dbh,
    client: graph,
    alerts: { mailer, recipients: ['ops@example.com'], publicUrl: 'http://console.test', sender: 'rules@example.com' },
    log: { info: quiet, warn: quiet, error: (message) => print({ error: message }) },
    now,
    scanCheckMs: 250,
    alertDelaySeconds: 1,
    pollingIntervalSeconds: 0.5,
    queue: { expireInSeconds: 20, superviseIntervalSeconds: 2, retryDelaySeconds: 2, retryLimit: 5 },
  });
  print({ ready: true });
  const stop = async () => {
    await engine.stop();
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
