/**
 * Temp dirs of a test run that go away with it: removed by `remove()` in a teardown, and else when
 * the process exits (vitest exits on Ctrl-C without running teardowns).
 */
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface TempDir {
  path: string;
  remove(): Promise<void>;
}

export async function makeTempDir(prefix: string): Promise<TempDir> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  const removeNow = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', removeNow);
  return {
    path: dir,
    async remove() {
      process.off('exit', removeNow);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
