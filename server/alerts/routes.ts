/**
 * The alert destinations' own call beside their generated ones (server/resources/routes.ts):
 * `POST /api/alert_destinations/{id}/test/` sends a labelled test message now and answers what
 * happened. Whoever may change the destinations may test them.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { alertTestResultSchema } from '../../shared/alertTest';
import alertDestinations from '../../shared/resources/alertDestinations';
import { actorOf, requireAnyPermission } from '../auth/plugin';
import { errors, idParams, noBody } from '../http/schemas';
import { sendTestDelivery } from './testDelivery';
import { createWebhookSender } from './webhook';

const alertRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = {
    db: app.db,
    cipher: app.credentials,
    send: createWebhookSender({ policy: app.webhookPolicy }),
    publicUrl: app.config.publicUrl,
  };
  app.post(
    `/${alertDestinations.path}:id/test/`,
    {
      preValidation: requireAnyPermission(...(alertDestinations.access.change ?? [])),
      schema: {
        tags: [alertDestinations.name],
        summary: 'Send a test message to the destination now',
        params: idParams,
        body: noBody,
        response: { 200: alertTestResultSchema, ...errors(400, 403, 404) },
      },
    },
    async (request) => {
      const user = actorOf(request);
      const name = [user.first_name, user.last_name].filter(Boolean).join(' ') || user.email;
      return sendTestDelivery(deps, request.params.id, name);
    },
  );
};

export default alertRoutes;
