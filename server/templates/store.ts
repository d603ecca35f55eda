/**
 * The template store: templates and the rules that follow them — listing, reading with followers
 * and lookalikes (templateReads.ts), creating, editing and deleting (templateWrites.ts, its edits
 * planned by editPlans.ts), and a folder's rule using, linking, leaving or resetting an override
 * (templateFollowing.ts). The routes are a line or two over these.
 */
import type { Database } from '../db/client';
import { planEdit } from './editPlans';
import { followerChangesOf, newFollowersOf } from './templateFollowing';
import { templateReadsOf } from './templateReads';
import { requireTemplate } from './templateRows';
import { templateWritesOf } from './templateWrites';

export { planFollowers, type FollowerPlan } from './editPlans';
export type { Viewer } from './templateReads';
export { newTemplateValues } from './templateRows';
export { TEMPLATE_ACTIONS } from './templateWrites';

/** `writes`: where changes run (their own lane on PostgreSQL, app.writeDb); `db` when absent. */
export function createTemplateStore(db: Database, { writes = db }: { writes?: Database } = {}) {
  return {
    ...templateReadsOf(db),
    ...templateWritesOf(db, writes),
    ...newFollowersOf(db, writes),
    ...followerChangesOf(db, writes),
    planEdit,
    requireTemplate,
  };
}

export type TemplateStore = ReturnType<typeof createTemplateStore>;
