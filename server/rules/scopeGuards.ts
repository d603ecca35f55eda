/**
 * The folder scope of rule accesses (server/people/ruleScope.ts) on the routes that change a rule
 * or a folder's rules: preHandler hooks, after the route's permission guard and the check of its
 * input, that answer 403 `{detail}` saying where the person may act. An id that names nothing
 * passes: the route's store answers its 404.
 */
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { actorOf } from '../auth/plugin';
import type { Database } from '../db/client';
import { ruleActivity, rules } from '../db/schema/index';
import { assertMayEditRulesIn, type RuleAccess } from '../people/ruleScope';

type ScopeHook = (request: FastifyRequest) => Promise<void>;

const idOf = (request: FastifyRequest) => (request.params as { id: number }).id;

export function createScopeGuards(db: Database) {
  const folderOfRule = async (ruleId: number) => {
    const [row] = await db.select({ folderId: rules.folderId }).from(rules).where(eq(rules.id, ruleId));
    return row?.folderId;
  };
  const folderOfActivityEntry = async (entryId: number) => {
    const [row] = await db
      .select({ folderId: ruleActivity.folderId })
      .from(ruleActivity)
      .where(eq(ruleActivity.id, entryId));
    return row?.folderId ?? undefined;
  };
  const guard =
    (access: RuleAccess, folderOf: (request: FastifyRequest) => Promise<number | undefined>): ScopeHook =>
    async (request) => {
      const folderId = await folderOf(request);
      if (folderId !== undefined) await assertMayEditRulesIn(db, actorOf(request), folderId, access);
    };

  return {
    /** The rule named by the path's id. */
    ruleInPath: (access: RuleAccess = 'create_update_rules') => guard(access, (r) => folderOfRule(idOf(r))),
    /** The folder named by the path's id. */
    folderInPath: (access: RuleAccess = 'create_update_rules') => guard(access, async (r) => idOf(r)),
    /** The folder a new rule is to go into (the body's `folder`). */
    folderInBody: (access: RuleAccess = 'create_update_rules') =>
      guard(access, async (r) => (r.body as { folder?: number } | undefined)?.folder),
    /** The folder of the rule activity entry named by the path's id (an Undo). */
    activityEntryInPath: () => guard('create_update_rules', (r) => folderOfActivityEntry(idOf(r))),
  };
}
