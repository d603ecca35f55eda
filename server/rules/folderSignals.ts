/**
 * What the general view flags on a folder row: its ad account's health problems (server/health/)
 * and, on each active rule, how it works against other rules of the folder (server/engine/conflicts.ts).
 */
import type { Database } from '../db/client';
import type { FolderDto } from '../../src/domain/folders';
import { conflictsOfFolders } from '../engine/conflictsSource';
import { folderHealth } from '../health/store';

export async function withSignals(db: Database, dtos: FolderDto[]): Promise<FolderDto[]> {
  const live = dtos.filter((f) => !f.is_deleted);
  if (!live.length) return dtos;
  const accounts = [...new Set(live.flatMap((f) => (f.meta_ad_account ? [f.meta_ad_account.ad_account_id] : [])))];
  const [health, conflicts] = await Promise.all([
    folderHealth(db, accounts),
    conflictsOfFolders(
      db,
      live.map((f) => f.id),
    ),
  ]);
  return dtos.map((f) => {
    if (f.is_deleted) return f;
    const problems = f.meta_ad_account ? health.get(f.meta_ad_account.ad_account_id) : undefined;
    return {
      ...f,
      ...(problems ? { health: problems } : {}),
      rules: f.rules.map((r) => {
        const own = conflicts.get(r.id);
        return own ? { ...r, conflicts: own.map((c) => c.detail) } : r;
      }),
    };
  });
}
