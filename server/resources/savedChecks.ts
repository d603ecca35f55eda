/** The resources whose records pass a check of their own when saved (store.ts's SavedCheck), by name. */
import type { FastifyInstance } from 'fastify';
import alertDestinations from '../../shared/resources/alertDestinations';
import { alertDestinationCheck } from '../alerts/destinationChecks';
import type { SavedCheck } from './store';

export const savedChecksOf = (app: FastifyInstance): Record<string, SavedCheck> => ({
  [alertDestinations.name]: alertDestinationCheck({
    db: app.db,
    policy: app.webhookPolicy,
    caps: app.config.alertMaxDestinations,
    envUrl: app.config.alertWebhookUrl,
  }),
});
