import { configDefaults, defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// CI asks for a machine-readable summary (.ci/run prints the plain `N passed, N failed` total).
const jsonReport = process.env.VITEST_JSON_REPORT;

// Server test files that need PostgreSQL by nature (processes sharing one server, LISTEN on a
// connection of its own, a pool's connections): left out when TEST_ENGINES has no PostgreSQL
// (`npm run test:quick`), run by `npm test` and CI.
const postgresOnlyFiles = [
  'tests/server/auth/passwordBursts.test.ts', // its last test: two API processes on one PostgreSQL
  'tests/server/db/listener.test.ts',
  'tests/server/db/oneConnection.test.ts',
  'tests/server/run/processes.test.ts',
  'tests/server/run/runNowProcesses.test.ts',
  'tests/server/templates/concurrency.test.ts',
];
// TEST_ENGINES as tests/support/engines.ts reads it (which also refuses unknown names).
const engineList = process.env.TEST_ENGINES?.trim();
const withPostgres = !engineList || engineList.split(',').some((name) => name.trim() === 'postgres');
// The quick tier (`npm run test:quick`, tests/support/quickTier.mjs) is the run without PostgreSQL.
const quickTier = !withPostgres;

export default defineConfig({
  test: {
    reporters: jsonReport ? ['default', ['json', { outputFile: jsonReport }]] : ['default'],
    // Two files at a time on a two-core machine (vitest's default there is one): the server tests
    // mostly wait on databases, processes and sockets; the browser-app tests stay one at a time.
    maxWorkers: 2,
    projects: [
      {
        plugins: [react()],
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: ['tests/src/**/*.test.{ts,tsx}', 'tests/shared/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/support/setupBrowser.ts'],
          // React-admin and MUI are evaluated once per worker instead of once per file (the unit
          // project 312 → 168 s on a 2-core machine); every file sets up its own mock server,
          // session and query client in its hooks, so nothing a file needs is left by another.
          isolate: false,
          // jsdom and React keep a core busy: a second file beside it only slows both. The
          // projects run one after the other (groupOrder), each with its own number of workers.
          maxWorkers: 1,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          exclude: withPostgres ? configDefaults.exclude : [...configDefaults.exclude, ...postgresOnlyFiles],
          globalSetup: ['tests/support/globalDb.ts'],
          setupFiles: ['tests/support/setupServer.ts'],
          // In the quick tier a worker's files share its modules, as the unit project's do: the server
          // code is evaluated once per worker instead of once per file, about half of this project's
          // CPU time. npm test and CI keep a fresh process per file.
          isolate: !quickTier,
          // Thousands of sign-ins: scrypt at 2^12 instead of 2^17 (128 MiB, ~0.5 s of a core each).
          // The browser tests run the product at full cost; docs/decisions.md says why.
          env: { PASSWORD_HASH_COST: '12' },
          // Three files at a time: most of a server test's time is spent waiting on a database, a
          // child process or a socket, not on a core. The quick tier runs five: its files use about
          // 40% of a core each, and the unit run beside it has the first claim on a core (nice).
          maxWorkers: quickTier ? 5 : 3,
          testTimeout: 30_000,
          hookTimeout: 120_000,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 300_000,
          // Two files at a time: each opens its own product (port, data directory, browser), and
          // half of a file's time is waiting on a product starting or a page settling.
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
