/**
 * The preview of a template edit: which folders' rules it changes and which overrides shield them,
 * and from the backtest on each folder's recorded history what the changed rules would have done
 * over the last 30 days under the old and the new values (server/backtest/fleet.ts).
 */
import type { Database } from '../db/client';
import { previewFleet, type FleetRule, type FleetRuleChange } from '../backtest/fleet';
import type { RulePatchBody } from '../rules/ruleUpdate';
import type { RuleValues } from '../../shared/rules';
import { differingFields, type TemplatePreviewDto } from '../../shared/templates';
import { isLive } from './followers';
import type { TemplateStore } from './store';

export const PREVIEW_DAYS = 30;

/** The rule as the backtest replays it; a rule switched off does nothing on that side. */
const replayed = (values: RuleValues): FleetRule | null => (values.is_active ? values : null);

export function createTemplatePreviews(db: Database, store: TemplateStore) {
  async function preview(id: number, patch: RulePatchBody, now = new Date()): Promise<TemplatePreviewDto> {
    const { before, after, plans, text } = await store.planEdit(db, id, patch, false);
    const live = plans.filter((p) => isLive(p.follower));
    const touched = new Set(differingFields(before, after));
    const moved = live.filter((p) => p.changes.length);
    const fleet: FleetRuleChange[] = moved.map((p) => ({
      folderId: p.follower.folderId,
      ruleId: p.follower.ruleId,
      before: replayed(p.current),
      after: replayed(p.next),
    }));
    const started = performance.now();
    const backtest = await previewFleet(db, fleet, { now, days: PREVIEW_DAYS });
    return {
      template_changes: text,
      folders: new Set(moved.map((p) => p.follower.folderId)).size,
      rules: moved.length,
      followers: live.length,
      changes: live.map((p) => ({
        folder: { id: p.follower.folderId, name: p.follower.folderName },
        rule: { id: p.follower.ruleId, name: p.follower.ruleName },
        fields: p.changes,
        kept: p.follower.overrides.filter((f) => touched.has(f)),
      })),
      backtest: { ...backtest, seconds: Math.round((performance.now() - started) / 10) / 100 },
    };
  }
  return { preview };
}
