/**
 * Every route's input validated and its answer serialised by its zod schema, and one error handler
 * for the whole app, so every error has the contract's shape (`{detail}` / `{field: [...]}`).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { installErrorHandlers } from '../http/errors';

export default fp(
  async (app: FastifyInstance) => {
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    // A body-taking route called with no body sees `{}`, so its schema answers field by field.
    app.addHook('preValidation', async (request) => {
      if (request.body === undefined && request.routeOptions.schema?.body) request.body = {};
    });
    installErrorHandlers(app);
  },
  { name: 'validation' },
);
