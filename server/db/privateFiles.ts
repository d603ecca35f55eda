/**
 * DATA_DIR holds the embedded database (password hashes, tokens' hashes, folder credentials), the
 * secrets and the mail outbox: readable by the server's user only. PGlite writes some of its
 * files world-readable (0666 from its initial data directory), so the tree is narrowed when the
 * database opens — directories 0700, files 0600 — and the process's umask keeps what it creates
 * later private too.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `dir` if needed and makes it and everything under it private to this user. */
export function makePrivate(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  narrow(dir);
}

function narrow(target: string): void {
  const stat = lstatSync(target);
  if (stat.isSymbolicLink()) return;
  if (stat.isDirectory()) {
    if ((stat.mode & 0o777) !== PRIVATE_DIR_MODE) chmodSync(target, PRIVATE_DIR_MODE);
    for (const entry of readdirSync(target)) narrow(path.join(target, entry));
  } else if ((stat.mode & 0o777) !== PRIVATE_FILE_MODE) {
    chmodSync(target, PRIVATE_FILE_MODE);
  }
}

/** New files and directories of this process: no access for group or others. */
export function keepNewFilesPrivate(): void {
  process.umask(0o077);
}
