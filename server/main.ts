/**
 * `npm start` / `npm run serve` / `npm run worker`: open the database, migrate, serve; drain and
 * exit on SIGTERM/SIGINT (shutdown.ts).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from './config';
import { serveBackups } from './db/backup';
import { openDatabase } from './db/client';
import { buildApp } from './app';
import { persistentSecret } from './auth/secrets';
import { ensureAdmin } from './people/bootstrap';
import { startServices } from './startup';
import { loggerOptions } from './observability/logging';
import { buildProbeServer } from './observability/probeServer';
import { closeOnSignals, stopWithParent } from './shutdown';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function main() {
  const roleFlag = process.argv.indexOf('--role');
  const config = loadConfig(process.env, roleFlag > 0 ? { role: process.argv[roleFlag + 1] as never } : {});
  const dbh = await openDatabase(config);
  await dbh.migrate();

  const admin = await ensureAdmin(dbh.db, config.adminEmail, config.adminPassword);
  if (admin.created) {
    console.log(
      `\nCreated the admin account ${admin.email}` +
        (admin.generatedPassword
          ? ` with password: ${admin.generatedPassword}\n(shown once; set ADMIN_PASSWORD to choose it)`
          : ''),
    );
  }

  const jwtSecret = await persistentSecret(config.dataDir, 'jwt', config.jwtSecret, 'JWT_SECRET');
  const services = await startServices(config, dbh);
  const logger = loggerOptions(config);
  // A worker serves no API, only its probes and metrics.
  const app =
    config.role === 'worker'
      ? await buildProbeServer({ config, dbh, services: services.services, logger })
      : await buildApp({
          config,
          dbh,
          jwtSecret,
          services: services.services,
          staticDir: path.join(root, 'dist'),
          logger,
        });
  // `npm run backup` asks the server that owns the embedded database (server/db/backup.ts).
  const stopServingBackups = await serveBackups(config.dataDir, dbh, (message) => app.log.warn(message));
  app.addHook('onClose', stopServingBackups);
  closeOnSignals({ app, services, dbh }, config.shutdownTimeoutSeconds);
  stopWithParent();

  await app.listen({ port: config.port, host: config.host });
  await services.listening?.((app.server.address() as { port: number }).port);
  console.log(
    config.role === 'worker'
      ? `Ad Rules Console worker is running (probes and metrics on port ${config.port}).`
      : `\nAd Rules Console is running: open ${config.publicUrl}\n`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
