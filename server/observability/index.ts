/**
 * Running the server in production: the request log, the health probes and the metrics endpoint,
 * registered at the root of an app (buildApp, or the worker's probe server).
 */
import fp from 'fastify-plugin';
import { healthRoutes } from './health';
import { logRequests } from './logging';
import { metricsEndpoint } from './metricsEndpoint';

export default fp(
  async (app) => {
    logRequests(app);
    await metricsEndpoint(app);
    await app.register(healthRoutes);
  },
  { name: 'observability' },
);
