/**
 * What the general view flags on a folder row: its ad account's health problems (server/health/)
 * and, on each active rule, how it works against other rules of its folder and of the other live
 * folders on its ad account (server/judgement/conflicts.ts).
 */
import type { Database } from '../db/client';
import type { FolderDto, FolderRuleDto } from '../../shared/folders';
import type { RuleConflictDto } from '../../shared/judging';
import { createJudgingStore, type JudgingStore } from './judgingStore';
import { createHealthStore, type HealthStore } from '../health/store';

/** A rule row with its conflicts: its own folder's as texts, other folders' whole (naming folder and rule). */
function withConflicts(rule: FolderRuleDto, conflicts: RuleConflictDto[] | undefined): FolderRuleDto {
  if (!conflicts) return rule;
  const own = conflicts.filter((c) => c.other_folder_id === c.folder_id);
  const others = conflicts.filter((c) => c.other_folder_id !== c.folder_id);
  return {
    ...rule,
    ...(own.length ? { conflicts: own.map((c) => c.detail) } : {}),
    ...(others.length ? { other_folder_conflicts: others } : {}),
  };
}

/** What the folder rows' signals are read from: their accounts' health problems and their rules' conflicts. */
export interface SignalReads {
  health: ReturnType<HealthStore['folderHealth']>;
  conflicts: ReturnType<JudgingStore['conflictsOfAccounts']>;
}

/**
 * Asks what the signals of folders on these ad accounts are read from: two statements, the health
 * problems and the live active rules of every live folder on the accounts (one statement however
 * many folders share them). Asked beside the folders' own rules: on PGlite's one connection, whose
 * statements run one at a time in the order asked, statements asked together wait for the others
 * once, not each in turn.
 */
export function readSignals(db: Database, adAccountIds: (string | null)[]): SignalReads {
  const accounts = [...new Set(adAccountIds.filter((id): id is string => id !== null))];
  return {
    health: createHealthStore(db).folderHealth(accounts),
    conflicts: createJudgingStore(db).conflictsOfAccounts(accounts),
  };
}

/**
 * The folder rows with their signals: their accounts' health and their rules' conflicts, judged
 * among the live active rules of every live folder on their accounts; `asked`: those when already
 * asked (readSignals).
 */
export async function withSignals(db: Database, dtos: FolderDto[], asked?: SignalReads): Promise<FolderDto[]> {
  const live = dtos.filter((f) => !f.is_deleted);
  if (!live.length) return dtos;
  const reads =
    asked ??
    readSignals(
      db,
      live.map((f) => f.meta_ad_account?.ad_account_id ?? null),
    );
  const [health, conflicts] = await Promise.all([reads.health, reads.conflicts]);
  return dtos.map((f) => {
    if (f.is_deleted) return f;
    const problems = f.meta_ad_account ? health.get(f.meta_ad_account.ad_account_id) : undefined;
    return {
      ...f,
      ...(problems ? { health: problems } : {}),
      rules: f.rules.map((r) => withConflicts(r, conflicts.get(r.id))),
    };
  });
}
