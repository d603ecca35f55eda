/**
 * DATA_DIR holds the embedded database (password hashes, tokens' hashes, folder credentials), the
 * secrets and the mail outbox: readable by the server's user only. PGlite writes some of its
 * files world-readable (0666 from its initial data directory), so the tree is narrowed when the
 * database opens — directories 0700, files 0600 — and the process's umask keeps what it creates
 * later private too.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
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

/**
 * Writes `data` to `file` readable by this user only, whatever was there: a new 0600 file beside it
 * (created exclusively, so no existing file or symlink is opened), flushed, then renamed into
 * place. An existing file's mode is not kept, and a symlink at `file` is replaced, not followed.
 */
export async function writePrivateFile(file: string, data: Uint8Array): Promise<void> {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', PRIVATE_FILE_MODE);
  try {
    await handle.chmod(PRIVATE_FILE_MODE); // whatever the umask
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
    await rename(temporary, file);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw error;
  }
}
