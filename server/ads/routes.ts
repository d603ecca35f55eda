/**
 * The ads list (docs/api.md, "Ads"):
 *   GET  /api/ads/            filtered, ordered, paged; each ad on or why not      view_logs
 *   POST /api/ads/turn_on/    turn back on the ads rules turned off, as Undo does  create_update_rules
 * Turning back on is the Activity's Undo of each ad's turn-off (the rule engine's `undo`: the ad on
 * again, exempt from the rule), guarded as the Undo route is: create_update_rules, and for each ad
 * the folder scope of the turn-off's entry (server/people/ruleScope.ts); an ad outside it is left
 * off and its result says why.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AdTurnOnAnswer } from '../../shared/ads';
import { actorOf, requirePermission } from '../auth/plugin';
import { ApiError } from '../http/errors';
import { assertMayEditRulesIn } from '../people/ruleScope';
import { paginate, pageRequest } from '../http/pagination';
import { errors, pageOf } from '../http/schemas';
import { adListQuery, adSchema, adTurnOnAnswer, adTurnOnBody, tags } from './schemas';
import { createAdStore } from './store';

const NOT_BY_A_RULE = 'Not off because of a rule: turn it on in Ads Manager.';

const adRoutes: FastifyPluginAsyncZod = async (app) => {
  const store = createAdStore(app.db);

  app.get(
    '/ads/',
    {
      preValidation: requirePermission('view_logs'),
      schema: { tags, querystring: adListQuery, response: { 200: pageOf(adSchema), ...errors(400, 403) } },
    },
    async (request) => {
      const paging = pageRequest(request.query, 25, 100);
      return paginate(request, paging, await store.list(paging, request.query));
    },
  );

  app.post(
    '/ads/turn_on/',
    {
      // As POST /api/rule_log/{id}/undo/.
      preValidation: requirePermission('create_update_rules'),
      schema: {
        tags,
        summary: 'Turn back on the ads rules turned off, each exempt from its rule (as Undo)',
        body: adTurnOnBody,
        response: { 200: adTurnOnAnswer, ...errors(400, 403, 503) },
      },
    },
    async (request): Promise<AdTurnOnAnswer> => {
      const actor = actorOf(request);
      const ids = [...new Set(request.body.ids)];
      const turnOffs = await store.ruleTurnOffsOf(ids);
      const results: AdTurnOnAnswer['results'] = [];
      // One at a time, as a person pressing Undo on each: each is its own call to the platform.
      for (const adId of ids) {
        const turnOff = turnOffs.get(adId);
        if (turnOff === undefined) {
          results.push({ ad_id: adId, result: 'skipped', detail: NOT_BY_A_RULE });
          continue;
        }
        try {
          if (turnOff.folderId !== null) await assertMayEditRulesIn(app.db, actor, turnOff.folderId);
          await app.ruleEngine.undo(turnOff.entryId, actor);
          results.push({ ad_id: adId, result: 'turned_on', detail: 'Turned back on; the rule leaves it alone.' });
        } catch (error) {
          // No rule engine on this server (503) is the whole call's answer; a bug is not an ad's.
          if (!(error instanceof ApiError) || error.statusCode === 503) throw error;
          results.push({ ad_id: adId, result: 'failed', detail: String(error.body.detail ?? error.message) });
        }
      }
      const turnedOn = results.filter((r) => r.result === 'turned_on').length;
      const left = results.length - turnedOn;
      return {
        detail: `${turnedOn} ad${turnedOn === 1 ? '' : 's'} turned back on${left ? `; ${left} left as ${left === 1 ? 'it was' : 'they were'}` : ''}.`,
        turned_on: turnedOn,
        results,
      };
    },
  );
};

export default adRoutes;
