/** bench/results/latest.json: each bench replaces its own section, per engine, and keeps the rest. */
import { readFile, writeFile } from 'node:fs/promises';

export async function mergeLatestSection(
  file: string,
  section: string,
  byEngine: Record<string, unknown>,
): Promise<void> {
  const existing = await readFile(file, 'utf8').then(
    (text) => JSON.parse(text) as Record<string, unknown>,
    () => ({}) as Record<string, unknown>,
  );
  // An engine not run this time keeps its last numbers.
  const merged = { ...((existing[section] as Record<string, unknown> | undefined) ?? {}), ...byEngine };
  await writeFile(file, `${JSON.stringify({ ...existing, [section]: merged }, null, 2)}\n`);
}
