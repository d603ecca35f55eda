/**
 * Run records and held runs: a rule's runs (the editor's Runs panel), one run with what it looked
 * at and why, and Approve / Dismiss of a held run. Paths are in docs/api.md.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { actorName } from '../audit/log';
import { currentUser, requirePermission } from '../auth/plugin';
import { rules } from '../db/schema/index';
import { ApiError, notFound } from '../http/errors';
import { page, pageRequest } from '../http/pagination';
import { pathId } from '../http/params';
import { findRun, listRuns } from './runs';
import type { Actor, RuleEngineService } from './service';

const actorOf = (request: FastifyRequest): Actor => {
  const user = currentUser(request);
  return { id: user.id, name: actorName(user) };
};

export default async function ruleRunRoutes(app: FastifyInstance) {
  const engine = (): RuleEngineService => {
    const service = app.services.ruleEngine;
    if (!service) throw new ApiError(503, { detail: 'The rule engine is not available on this server.' });
    return service;
  };

  const requireRun = async (id: number) => {
    const run = await findRun(app.db, id);
    if (!run) throw notFound();
    return run;
  };

  app.get('/rule/:id/runs/', { preHandler: requirePermission('read_rules') }, async (request) => {
    const ruleId = pathId(request);
    const [rule] = await app.db
      .select({ id: rules.id })
      .from(rules)
      .where(and(eq(rules.id, ruleId)));
    if (!rule) throw notFound();
    const paging = pageRequest(request.query as Record<string, unknown>, 10, 100);
    const { count, results } = await listRuns(app.db, ruleId, paging);
    return page(request, paging, count, results);
  });

  app.get('/rule_runs/:id/', { preHandler: requirePermission('read_rules') }, async (request) =>
    requireRun(pathId(request)),
  );

  app.post('/rule_runs/:id/approve/', { preHandler: requirePermission('create_update_rules') }, async (request) => {
    const id = pathId(request);
    const result = await engine().approve(id, actorOf(request));
    return {
      status: result.status,
      detail: result.note,
      turned_off: result.turnedOff.length,
      failed: result.failed.length,
      held_run: await requireRun(id),
      run: result.runId ? await findRun(app.db, result.runId) : null,
    };
  });

  app.post('/rule_runs/:id/dismiss/', { preHandler: requirePermission('create_update_rules') }, async (request) => {
    const id = pathId(request);
    await engine().dismiss(id, actorOf(request));
    return requireRun(id);
  });
}
