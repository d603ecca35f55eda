/**
 * Running the server in production: the health probes and the metrics endpoint, registered at the
 * root of an app (buildApp, or the worker's probe server), and the request log, given to Fastify
 * as its log controller.
 */
import fp from 'fastify-plugin';
import { healthRoutes } from './health';
import { RequestLogController } from './logging';
import { metricsEndpoint } from './metricsEndpoint';

export default fp(
  async (app) => {
    await metricsEndpoint(app);
    await app.register(healthRoutes);
  },
  { name: 'observability' },
);

export const requestLogController = () => new RequestLogController();
