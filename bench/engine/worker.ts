/**
 * One rule-engine worker process of the engine bench (`npm run bench -- --engine`), started by
 * bench/engine/run.ts with `node --import tsx`. It runs the engine the way `ROLE=worker` does
 * (startRuleEngine with the server's defaults, the production GraphClient), only with the
 * blast-radius limit lifted and no periodic scan: the bench says when the slot begins.
 *
 * Environment: KIND (postgres | pglite), DATABASE_URL (postgres), GRAPH_URL, SEED_FILE (this
 * worker migrates and seeds: {accounts, rulesPerAccount, slot}), SLOT (ISO).
 * stdin commands, one per line: `scan` (run the scan now), `stats` (answer the slot's progress),
 * `stop`. stdout: one JSON object per line ({ready}, {scanned}, {stats}, {client}, {error}).
 */
import { readFile } from 'node:fs/promises';
import readline from 'node:readline';
import { GraphClient } from '../../server/adplatform/graphClient';
import { DEFAULT_META_API_VERSION } from '../../server/adplatform/versions';
import { openPglite, openPostgres, type DbHandle } from '../../server/db/client';
import { startRuleEngine } from '../../server/run/startInWorker';
import type { Mailer } from '../../server/mail/mailer';
import { seedEngineBench, type BenchAccount } from './seed';
import { slotProgress } from './progress';

const env = process.env;
const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
const noMail: Mailer = { mode: 'outbox', send: async () => ({ messageId: 'none' }), close: async () => undefined };
/** ENGINE_MAX_SHARE=1 and a large ENGINE_MAX_ACTIONS: every planned turn-off is made, none held. */
const LIFTED_LIMITS = { maxShare: 1, maxActions: 1_000_000 };

async function main() {
  const slot = new Date(env.SLOT!);
  const dbh: DbHandle = env.KIND === 'pglite' ? await openPglite(undefined) : await openPostgres(env.DATABASE_URL!);
  if (env.SEED_FILE) {
    const seed = JSON.parse(await readFile(env.SEED_FILE, 'utf8')) as {
      accounts: BenchAccount[];
      rulesPerAccount: number;
    };
    await dbh.migrate();
    const seeded = await seedEngineBench(dbh.db, seed.accounts, seed.rulesPerAccount, slot);
    print({ seeded });
  }

  const client = { usageWaits: 0, usageWaitMs: 0, refusedRetries: 0, otherRetries: 0 };
  const graph = new GraphClient({
    baseUrl: env.GRAPH_URL!,
    apiVersion: DEFAULT_META_API_VERSION,
    accessToken: 'simulator-token',
    onEvent: (event) => {
      if (event.type === 'throttle') {
        client.usageWaits += 1;
        client.usageWaitMs += event.delayMs;
      }
      if (event.type === 'retry') {
        if (/limit|too many/i.test(event.error.message)) client.refusedRetries += 1;
        else client.otherRetries += 1;
      }
    },
  });
  const errors: string[] = [];
  const engine = await startRuleEngine({
    dbh,
    client: graph,
    alerts: { mailer: noMail, recipients: ['ops@example.com'], publicUrl: 'http://console.test' },
    limits: LIFTED_LIMITS,
    log: {
      info: () => undefined,
      warn: (m) => errors.length < 20 && errors.push(m),
      error: (m) => errors.length < 20 && errors.push(m),
    },
    autoScan: false,
  });
  print({ ready: true });

  const lines = readline.createInterface({ input: process.stdin });
  for await (const line of lines) {
    const command = line.trim();
    try {
      if (command === 'scan') {
        const started = Date.now();
        const due = await engine.scan();
        print({ scanned: due.length, seconds: (Date.now() - started) / 1000 });
      } else if (command === 'stats') {
        print({ stats: await slotProgress(dbh, slot), client: { ...client, calls: graph.calls }, errors });
      } else if (command === 'stop') {
        break;
      }
    } catch (error) {
      print({ error: String((error as Error)?.stack ?? error) });
    }
  }
  await engine.stop();
  await dbh.close();
  process.exit(0);
}

main().catch((error) => {
  print({ error: String(error?.stack ?? error) });
  process.exit(1);
});
