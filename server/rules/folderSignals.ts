/**
 * What the general view flags on a folder row: its ad account's health problems (server/health/)
 * and, on each active rule, how it works against other rules of the folder (server/engine/conflicts.ts).
 */
import type { Database } from '../db/client';
import type { FolderDto } from '../../src/domain/folders';
import { readJudging } from '../../src/domain/judging';
import { conflictsByRule } from '../engine/conflictsSource';
import type { RuleItem } from '../engine/ruleShape';
import { folderHealth } from '../health/store';
import type { RuleSummaryWithSettings, StoredRuleItem } from './store';

const itemsOfType = (items: StoredRuleItem[], type: string): RuleItem[] =>
  items.filter((i) => i.type === type).map((i) => ({ name: i.name, values: i.values, is_active: i.is_active }));

/** The folders' live active rules as the conflict check reads them, from rulesOfFolders(…, true). */
function activeRules(rulesByFolder: Map<number, RuleSummaryWithSettings[]>) {
  return [...rulesByFolder.values()].flatMap((folderRules) =>
    folderRules.flatMap(({ id, name, isActive, folderId, settings }) =>
      settings
        ? [
            {
              id,
              name,
              isActive,
              folderId,
              judging: readJudging(settings.judging),
              rule_filter: itemsOfType(settings.items, 'rule_filter'),
              rule_task: itemsOfType(settings.items, 'rule_task'),
            },
          ]
        : [],
    ),
  );
}

/** Health problems by ad account, as folderHealth answers them. */
type HealthByAccount = Awaited<ReturnType<typeof folderHealth>>;

/**
 * The health problems of these ad accounts (the live folder rows'), to read beside the rules:
 * on PGlite's one connection, whose statements run one at a time in the order asked, two
 * statements asked together wait for the others once, not twice.
 */
export const healthOfAccounts = (db: Database, adAccountIds: (string | null)[]) =>
  folderHealth(db, [...new Set(adAccountIds.filter((id): id is string => id !== null))]);

/**
 * The folder rows with their signals; `rulesByFolder` is what their rules were read from, `health`
 * their accounts' problems when already asked (healthOfAccounts).
 */
export async function withSignals(
  db: Database,
  dtos: FolderDto[],
  rulesByFolder: Map<number, RuleSummaryWithSettings[]>,
  asked?: Promise<HealthByAccount>,
): Promise<FolderDto[]> {
  const live = dtos.filter((f) => !f.is_deleted);
  if (!live.length) return dtos;
  const health = await (asked ??
    healthOfAccounts(
      db,
      live.map((f) => f.meta_ad_account?.ad_account_id ?? null),
    ));
  const conflicts = conflictsByRule(activeRules(rulesByFolder));
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
