// `npm start`: build the browser app when its sources are newer than the build, then serve.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = path.join(root, 'dist', 'index.html');

function newestMtime(target) {
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

const sources = ['src', 'index.html', 'vite.config.ts', 'package-lock.json']
  .map((p) => path.join(root, p))
  .filter(existsSync);
const needsBuild = !existsSync(built) || Math.max(...sources.map(newestMtime)) > statSync(built).mtimeMs;
if (needsBuild) {
  console.log('Building the browser app…');
  // Build beside dist/ and swap it in, so a server already running never sees a half-written build.
  const next = path.join(root, `dist-next-${process.pid}`);
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', next, '--emptyOutDir'], {
    cwd: root,
    stdio: 'inherit',
    // A test runner's NODE_ENV=test would otherwise produce React's development build.
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) {
    rmSync(next, { recursive: true, force: true });
    process.exit(result.status ?? 1);
  }
  const old = path.join(root, `dist-old-${process.pid}`);
  if (existsSync(path.join(root, 'dist'))) renameSync(path.join(root, 'dist'), old);
  renameSync(next, path.join(root, 'dist'));
  rmSync(old, { recursive: true, force: true });
}

// The server runs as node's own child (no npx in between, which would not pass signals on) in a
// process group of its own, so each SIGINT/SIGTERM reaches it once, through here, and it drains.
// A terminal's Ctrl-C reaches this script twice under `npm start` (from the terminal and from
// npm): a repeat within a second is that echo; a later one forces the server to stop.
// The IPC channel closes when this script dies, however it dies (SIGKILL too): the server then
// stops by itself (server/shutdown.ts, stopWithParent).
const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', ...process.argv.slice(2)], {
  cwd: root,
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  detached: true,
});
let firstSignalAt = 0;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (firstSignalAt && Date.now() - firstSignalAt < 1000) return;
    firstSignalAt ||= Date.now();
    server.kill(signal);
  });
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
