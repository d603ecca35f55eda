/** `npm start` / `npm run serve` / `npm run worker`: open the database, migrate, serve. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { buildApp } from './app';
import { persistentSecret } from './auth/secrets';
import { ensureAdmin } from './people/bootstrap';
import { startServices } from './startup';

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
  const app = await buildApp({
    config,
    dbh,
    jwtSecret,
    services: services.services,
    staticDir: path.join(root, 'dist'),
    logger: { level: config.logLevel },
  });

  if (config.role !== 'worker') {
    await app.listen({ port: config.port, host: config.host });
    console.log(`\nAd Rules Console is running: open ${config.publicUrl}\n`);
  } else {
    await app.ready();
    console.log('Ad Rules Console worker is running.');
  }

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await app.close().catch(() => undefined);
    await services.stop().catch(() => undefined);
    await dbh.close().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
