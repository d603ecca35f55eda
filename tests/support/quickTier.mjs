/**
 * `npm run test:quick`: the unit project and the server project on PGlite only (TEST_ENGINES=pglite:
 * no PostgreSQL, no browser), as two vitest runs side by side. The unit project keeps one core busy
 * on its own (jsdom, one worker) and is the longest part; run one after the other, the machine's
 * second core would idle through it. The server run (and its workers) yields to it when both want
 * a core (nice 10): it has the other core and every moment the unit run waits. Each line is shown
 * as it comes, marked with its run; the exit code is 1 when either failed. Arguments are passed to
 * both runs (a file filter that matches nothing in one is no error).
 */
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = path.resolve(import.meta.dirname, '../..');
const VITEST = path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const args = process.argv.slice(2);

function run(project, niceness) {
  const started = Date.now();
  const env = { ...process.env, TEST_ENGINES: 'pglite' };
  if (process.stdout.isTTY) env.FORCE_COLOR ??= '1';
  // CI's machine-readable summary, if asked for, one file per run.
  if (env.VITEST_JSON_REPORT) env.VITEST_JSON_REPORT = env.VITEST_JSON_REPORT.replace(/(\.json)?$/, `.${project}.json`);
  const child = spawn(
    process.execPath,
    [VITEST, 'run', '--project', project, ...(args.length ? ['--passWithNoTests'] : []), ...args],
    { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  // Before its workers start: they inherit it. (A run that has ended already needs none.)
  if (niceness && child.pid) {
    try {
      setPriority(child.pid, niceness);
    } catch {}
  }
  const mark = `${project.padEnd(6)} │ `;
  for (const [from, to] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ])
    createInterface({ input: from, crlfDelay: Infinity }).on('line', (line) => to.write(`${mark}${line}\n`));
  return new Promise((resolve) =>
    child.on('close', (code, signal) =>
      resolve({ project, code: code ?? 1, signal, seconds: (Date.now() - started) / 1000 }),
    ),
  );
}

const results = await Promise.all([run('unit', 0), run('server', 10)]);
for (const { project, code, signal, seconds } of results)
  console.log(
    `${project === 'server' ? 'server (PGlite)' : project}: ${code === 0 ? 'passed' : `failed${signal ? ` (${signal})` : ''}`} in ${seconds.toFixed(0)} s`,
  );
process.exitCode = results.some((result) => result.code !== 0) ? 1 : 0;
