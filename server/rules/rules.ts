/**
 * The rule store: a rule's life in its folder (ruleLifecycle.ts: adding, duplicating, trashing,
 * restoring, deleting), its edits (ruleEdits.ts: a person's save, the failing-rule switch to
 * notify only) and its template (ruleTemplateLinks.ts). The rule routes are a line or two over these.
 */
import type { Database } from '../db/client';
import { ruleEditsOf } from './ruleEdits';
import { newRulesOf, ruleTrashingOf } from './ruleLifecycle';
import { ruleTemplateLinksOf } from './ruleTemplateLinks';

export { snapshotOf } from './loadedRules';
export type { RuleStart } from './ruleLifecycle';

/** `writes`: where a rule's save runs (its own lane on PostgreSQL, app.writeDb); `db` when absent. */
export function createRuleStore(db: Database, { writes = db }: { writes?: Database } = {}) {
  return {
    ...newRulesOf(db),
    ...ruleTrashingOf(db),
    ...ruleEditsOf(writes),
    ...ruleTemplateLinksOf(db),
  };
}

export type RuleStore = ReturnType<typeof createRuleStore>;
